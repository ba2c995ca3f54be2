import { createPublicKey, verify } from 'node:crypto';
import { fromBase32, fromBase64Url, toBase64Url } from './bytes';
import { canonicalText, DeviceCounter, newDeviceKey, publicJwk, signedFields, subscriptionFields } from './protocol';
import { languageOf, textsFor } from './i18n';
import { importTotpSecret, totpCode } from './totp';

// RFC 6238 appendix B, SHA-1: the key "12345678901234567890"
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe("the app's TOTP codes (WebCrypto HMAC)", () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
  ])('at %i s gives the RFC 6238 code %s', async (seconds, code) => {
    const key = await importTotpSecret(RFC_SECRET);
    expect((await totpCode(key, seconds * 1000, { digits: 8, period: 30 })).code).toBe(code);
    expect((await totpCode(key, seconds * 1000, { digits: 6, period: 30 })).code).toBe(code.slice(2));
  });

  it('says how long the code lasts, and keeps the secret in a key that cannot be exported', async () => {
    const key = await importTotpSecret(RFC_SECRET.toLowerCase());
    expect((await totpCode(key, 59_000, { digits: 6, period: 30 })).secondsLeft).toBe(1);
    expect((await totpCode(key, 60_000, { digits: 6, period: 30 })).secondsLeft).toBe(30);
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it('reads Base32 and base64url, and refuses what is not Base32', () => {
    expect(Buffer.from(fromBase32(RFC_SECRET)).toString()).toBe('12345678901234567890');
    expect(() => fromBase32('not base32!')).toThrow();
    const bytes = new Uint8Array([251, 255, 0, 1, 2]);
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    expect([...fromBase64Url(toBase64Url(bytes))]).toEqual([...bytes]);
  });
});

describe("the app's signed requests", () => {
  it('signs the canonical text in the P1363 form node:crypto verifies with the exported public key', async () => {
    const pair = await newDeviceKey();
    expect(pair.privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', pair.privateKey)).rejects.toThrow();
    const jwk = await publicJwk(pair.publicKey);
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    const fields = ['6f1c0d52-59b4-4b43-9c2e-0c6a4f6f1a77', '42', 'nonce'];
    const signed = await signedFields(pair.privateKey, 'decision', 'device-id', 7, 1_779_271_200_999, fields);
    expect(signed.time).toBe(1_779_271_200);
    const text = ['twofold-app-1', 'decision', 'device-id', '7', '1779271200', ...fields].join('\n');
    expect(canonicalText('decision', 'device-id', 7, 1_779_271_200, fields)).toBe(text);
    const signature = Buffer.from(signed.signature, 'base64url');
    expect(signature).toHaveLength(64);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(text + 'x'), { key, dsaEncoding: 'ieee-p1363' }, signature)).toBe(false);
  });

  it('refuses a field with a line break, and writes a missing subscription as three dashes', () => {
    expect(() => canonicalText('approvals', 'id', 1, 1, ['a\nb'])).toThrow();
    expect(subscriptionFields(null)).toEqual(['-', '-', '-']);
    expect(subscriptionFields({ endpoint: 'https://push.example/1', keys: { p256dh: 'P', auth: 'A' } })).toEqual([
      'https://push.example/1',
      'P',
      'A',
    ]);
  });

  it('counts up from the clock in milliseconds, and past the last counter when the clock does not move or goes back', () => {
    const counter = new DeviceCounter(1000);
    expect(counter.next(5000)).toBe(5000);
    expect(counter.next(5000)).toBe(5001);
    expect(counter.next(3000)).toBe(5002);
  });
});

describe("the app's language", () => {
  it('is Russian for a Russian browser, English otherwise', () => {
    expect(languageOf('ru-RU')).toBe('ru');
    expect(languageOf('RU')).toBe('ru');
    expect(languageOf('en-US')).toBe('en');
    expect(languageOf('de')).toBe('en');
    expect(languageOf(undefined)).toBe('en');
    expect(textsFor('ru').approve).toBe('Подтвердить');
    expect(textsFor('en').approve).toBe('Approve');
  });
});
