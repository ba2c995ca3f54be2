import { generateKeyPairSync, sign } from 'node:crypto';
import {
  approvalNonce,
  approvalNonceKey,
  canonicalText,
  DEVICE_CLOCK_SKEW_SECONDS,
  nonceMatches,
  parseChoice,
  parseDevicePublicKey,
  signatureHolds,
  spkiOf,
  timeAcceptable,
} from './device-signature';

describe('device signatures', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const text = canonicalText('decision', 'device-1', 7, 1_779_271_200, ['approval-1', '42', 'nonce']);
  const p1363 = sign('sha256', Buffer.from(text), { key: privateKey, dsaEncoding: 'ieee-p1363' });

  it('the canonical text is the version, the operation, who, the counter, the time and the fields, one a line', () => {
    expect(text).toBe('twofold-app-1\ndecision\ndevice-1\n7\n1779271200\napproval-1\n42\nnonce');
    expect(() => canonicalText('decision', 'device-1', 7, 1, ['a\nb'])).toThrow();
  });

  it('holds for the device key over that text (r‖s, as WebCrypto signs), and for nothing else', () => {
    expect(signatureHolds(publicKey, text, p1363)).toBe(true);
    expect(signatureHolds(publicKey, text.replace('42', '43'), p1363)).toBe(false);
    expect(signatureHolds(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, text, p1363)).toBe(false);
    // DER (not what WebCrypto gives) and garbage are not signatures
    expect(signatureHolds(publicKey, text, sign('sha256', Buffer.from(text), privateKey))).toBe(false);
    expect(signatureHolds(publicKey, text, Buffer.alloc(64))).toBe(false);
  });

  it('reads P-256 public keys as JWK or SPKI, and nothing else', () => {
    const jwk = publicKey.export({ format: 'jwk' });
    expect(spkiOf(parseDevicePublicKey(jwk)!)).toEqual(spkiOf(publicKey));
    expect(spkiOf(parseDevicePublicKey(spkiOf(publicKey).toString('base64'))!)).toEqual(spkiOf(publicKey));
    expect(parseDevicePublicKey(privateKey.export({ format: 'jwk' }))).toBeNull();
    expect(parseDevicePublicKey(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey.export({ format: 'jwk' }))).toBeNull();
    expect(parseDevicePublicKey(spkiOf(generateKeyPairSync('ed25519').publicKey).toString('base64'))).toBeNull();
    expect(parseDevicePublicKey({ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' })).toBeNull();
    expect(parseDevicePublicKey(42)).toBeNull();
  });

  it('accepts a device time within the skew only', () => {
    const now = new Date(1_779_271_200_000);
    expect(timeAcceptable(1_779_271_200 + DEVICE_CLOCK_SKEW_SECONDS, now)).toBe(true);
    expect(timeAcceptable(1_779_271_200 - DEVICE_CLOCK_SKEW_SECONDS - 1, now)).toBe(false);
  });

  it("an approval's nonce is bound to the approval and the device, under the service's key", () => {
    const key = approvalNonceKey(Buffer.alloc(32, 1));
    const nonce = approvalNonce(key, 'approval-1', 'device-1');
    expect(nonceMatches(key, 'approval-1', 'device-1', nonce)).toBe(true);
    expect(nonceMatches(key, 'approval-1', 'device-2', nonce)).toBe(false);
    expect(nonceMatches(key, 'approval-2', 'device-1', nonce)).toBe(false);
    expect(nonceMatches(approvalNonceKey(Buffer.alloc(32, 2)), 'approval-1', 'device-1', nonce)).toBe(false);
  });

  it('choices are approve, notMe or a two-digit number', () => {
    expect(parseChoice('approve')).toEqual({ kind: 'approve' });
    expect(parseChoice('notMe')).toEqual({ kind: 'notMe' });
    expect(parseChoice(42)).toEqual({ kind: 'number', number: 42 });
    expect(parseChoice(9)).toBeNull();
    expect(parseChoice('42')).toBeNull();
  });
});
