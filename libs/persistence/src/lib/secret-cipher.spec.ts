import { randomBytes } from 'node:crypto';
import { parseEncryptionKey, SecretCipher, SecretDecryptionError } from './secret-cipher';

describe('SecretCipher', () => {
  const key = randomBytes(32);
  const cipher = new SecretCipher(key);

  it('round-trips a secret', () => {
    const stored = cipher.encrypt('authenticator.secret', Buffer.from('3132333435363738393031323334353637383930', 'hex'));
    expect(cipher.decrypt('authenticator.secret', stored).toString('hex')).toBe('3132333435363738393031323334353637383930');
  });

  it('never stores the plaintext and uses a fresh IV each time', () => {
    const a = cipher.encrypt('account.api-secret', 'the-secret-value');
    const b = cipher.encrypt('account.api-secret', 'the-secret-value');
    expect(a.equals(b)).toBe(false);
    expect(a.toString('latin1')).not.toContain('the-secret-value');
  });

  it('refuses a ciphertext moved to another purpose', () => {
    const stored = cipher.encrypt('resource.api-secret', 'abc');
    expect(() => cipher.decrypt('account.api-secret', stored)).toThrow(SecretDecryptionError);
  });

  it('refuses a tampered ciphertext', () => {
    const stored = cipher.encrypt('resource.api-secret', 'abc');
    stored[stored.length - 1] ^= 1;
    expect(() => cipher.decrypt('resource.api-secret', stored)).toThrow(SecretDecryptionError);
  });

  it('refuses the wrong key', () => {
    const stored = cipher.encrypt('resource.api-secret', 'abc');
    expect(() => new SecretCipher(randomBytes(32)).decrypt('resource.api-secret', stored)).toThrow(SecretDecryptionError);
  });

  it('requires a 32-byte key', () => {
    expect(() => new SecretCipher(randomBytes(16))).toThrow('32 bytes');
  });
});

describe('parseEncryptionKey', () => {
  const key = randomBytes(32);

  it('reads hex and base64', () => {
    expect(parseEncryptionKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseEncryptionKey(key.toString('base64')).equals(key)).toBe(true);
  });

  it.each(['', 'abc', randomBytes(31).toString('base64'), randomBytes(33).toString('hex')])('refuses %p', (text) => {
    expect(() => parseEncryptionKey(text)).toThrow('SECRET_ENCRYPTION_KEY');
  });
});
