import { randomBytes } from 'node:crypto';
import { legacyCiphertext } from '../testing/legacy-ciphertext';
import {
  ciphertextKeyId,
  encryptionKeyId,
  parseEncryptionKey,
  parsePreviousEncryptionKeys,
  SecretCipher,
  SecretDecryptionError,
  UnknownEncryptionKeyError,
} from './secret-cipher';

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
    expect(() => new SecretCipher(key, [randomBytes(31)])).toThrow('SECRET_ENCRYPTION_PREVIOUS_KEYS must be exactly 32 bytes');
  });
});

describe('SecretCipher key ids and rotation', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('writes the key id into every ciphertext, and the id is no part of the key', () => {
    const cipher = new SecretCipher(newKey);
    expect(cipher.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(cipher.keyId).toBe(encryptionKeyId(newKey));
    expect(newKey.toString('hex')).not.toContain(cipher.keyId);
    expect(ciphertextKeyId(cipher.encrypt('authenticator.secret', 'x'))).toBe(cipher.keyId);
  });

  it('decrypts with a previous key what that key encrypted, and encrypts with the current key only', () => {
    const before = new SecretCipher(oldKey).encrypt('authenticator.secret', 'otp key');
    const rotated = new SecretCipher(newKey, [oldKey]);
    expect(rotated.decryptText('authenticator.secret', before)).toBe('otp key');
    const after = rotated.encrypt('authenticator.secret', 'otp key');
    expect(ciphertextKeyId(after)).toBe(encryptionKeyId(newKey));
    expect(() => new SecretCipher(oldKey).decrypt('authenticator.secret', after)).toThrow(UnknownEncryptionKeyError);
  });

  it('reads ciphertexts of the first format (no key id) with whichever configured key opens them', () => {
    const legacy = legacyCiphertext(oldKey, 'resource.api-secret', 'resource secret');
    expect(ciphertextKeyId(legacy)).toBeNull();
    expect(new SecretCipher(oldKey).decryptText('resource.api-secret', legacy)).toBe('resource secret');
    expect(new SecretCipher(newKey, [randomBytes(32), oldKey]).decryptText('resource.api-secret', legacy)).toBe('resource secret');
    expect(() => new SecretCipher(newKey).decrypt('resource.api-secret', legacy)).toThrow(SecretDecryptionError);
    expect(() => new SecretCipher(oldKey).decrypt('account.api-secret', legacy)).toThrow(SecretDecryptionError);
  });

  it('says which key id is missing, and never prints a key', () => {
    const stored = new SecretCipher(oldKey).encrypt('authenticator.secret', 'x');
    const cipher = new SecretCipher(newKey, [randomBytes(32)]);
    let error: unknown;
    try {
      cipher.decrypt('authenticator.secret', stored);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnknownEncryptionKeyError);
    const message = (error as Error).message;
    expect(message).toContain(encryptionKeyId(oldKey));
    expect(message).toContain(encryptionKeyId(newKey));
    expect(message).toContain('SECRET_ENCRYPTION_PREVIOUS_KEYS');
    for (const k of [oldKey, newKey]) {
      expect(message).not.toContain(k.toString('hex'));
      expect(message).not.toContain(k.toString('base64'));
    }
  });

  it('authenticates the key id: a ciphertext relabelled with another configured key id is refused', () => {
    const rotated = new SecretCipher(newKey, [oldKey]);
    const stored = new SecretCipher(oldKey).encrypt('authenticator.secret', 'x');
    Buffer.from(encryptionKeyId(newKey), 'hex').copy(stored, 1);
    expect(() => rotated.decrypt('authenticator.secret', stored)).toThrow(SecretDecryptionError);
  });

  it('tells current ciphertexts from those rotation must rewrite', () => {
    const rotated = new SecretCipher(newKey, [oldKey]);
    expect(rotated.isCurrent(rotated.encrypt('authenticator.secret', 'x'))).toBe(true);
    expect(rotated.isCurrent(new SecretCipher(oldKey).encrypt('authenticator.secret', 'x'))).toBe(false);
    expect(rotated.isCurrent(legacyCiphertext(newKey, 'authenticator.secret', 'x'))).toBe(false);
  });

  it('takes a previous key equal to the current one as harmless', () => {
    expect(new SecretCipher(newKey, [newKey, oldKey, oldKey]).keyIds).toEqual([encryptionKeyId(newKey), encryptionKeyId(oldKey)]);
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

describe('parsePreviousEncryptionKeys', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it('reads a comma-separated list of hex or base64 keys; absent or blank is none', () => {
    expect(parsePreviousEncryptionKeys(`${a.toString('hex')}, ${b.toString('base64')}`)).toEqual([a, b]);
    expect(parsePreviousEncryptionKeys(undefined)).toEqual([]);
    expect(parsePreviousEncryptionKeys('  ')).toEqual([]);
  });

  it('names the wrong entry by its position, never by its text', () => {
    const wrong = randomBytes(31).toString('hex');
    let message = '';
    try {
      parsePreviousEncryptionKeys(`${a.toString('hex')},${wrong}`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('SECRET_ENCRYPTION_PREVIOUS_KEYS entry 2');
    expect(message).not.toContain(wrong);
    expect(message).not.toContain(a.toString('hex'));
  });
});

describe('SecretCipher keys its ciphers with key objects', () => {
  // Node 24 spends about 10 µs turning a byte key into a key object in every createCipheriv and
  // createDecipheriv; the cipher makes its key objects once
  it('made once, at construction: encrypting and decrypting make none', () => {
    const crypto: typeof import('node:crypto') = jest.requireActual('node:crypto');
    const cipher = new SecretCipher(randomBytes(32), [randomBytes(32)]);
    const keyObjects = jest.spyOn(crypto, 'createSecretKey');
    const deciphers = jest.spyOn(crypto, 'createDecipheriv');
    const ciphers = jest.spyOn(crypto, 'createCipheriv');
    try {
      const sealed = cipher.encrypt('authenticator.secret', 'top secret');
      expect(cipher.decryptText('authenticator.secret', sealed)).toBe('top secret');
      expect(keyObjects).not.toHaveBeenCalled();
      expect(ciphers.mock.calls[0][1]).toBeInstanceOf(crypto.KeyObject);
      expect(deciphers.mock.calls[0][1]).toBeInstanceOf(crypto.KeyObject);
    } finally {
      keyObjects.mockRestore();
      deciphers.mockRestore();
      ciphers.mockRestore();
    }
  });
});
