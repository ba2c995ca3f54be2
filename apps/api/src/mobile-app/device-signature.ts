import { createHash, createHmac, createPublicKey, KeyObject, timingSafeEqual, verify } from 'node:crypto';
import { ApprovalChoice } from '@twofold/domain';
import { purposeKey } from '../config/purpose-keys';

/**
 * The protocol of the service's authenticator app. A device is a P-256 key pair made on the phone
 * (WebCrypto, not extractable); the service knows only the public key. Every device-facing request
 * carries, in its JSON body, the device's id (its authenticator's), a counter, the device's time and
 * an ECDSA P-256 / SHA-256 signature (IEEE P1363 r‖s, 64 bytes, base64url: what WebCrypto gives) over
 * a canonical text of the operation: the version label, the operation's name, the device id (the
 * enrollment token at enrollment), the counter, the time, then the operation's own fields, joined by
 * "\n" (no field may contain one). The service accepts a counter only when it is greater than every
 * counter the device used before (a copied request is refused: nothing replays) and a time within
 * DEVICE_CLOCK_SKEW_SECONDS of its own (a request kept back and sent later is refused). No bearer
 * secret exists that could be copied out of the app.
 */
export const SIGNATURE_VERSION = 'twofold-app-1';
export const DEVICE_CLOCK_SKEW_SECONDS = 300;

export type DeviceOperation = 'enroll' | 'approvals' | 'decision' | 'subscription';

export interface SignedEnvelope {
  /** the device's id; at enrollment, absent */
  deviceId: string | null;
  counter: number;
  /** the device's time, Unix seconds */
  time: number;
  signature: Buffer;
}

export function canonicalText(operation: DeviceOperation, who: string, counter: number, time: number, fields: readonly string[]): string {
  const parts = [SIGNATURE_VERSION, operation, who, String(counter), String(time), ...fields];
  if (parts.some((part) => part.includes('\n'))) throw new Error('a signed field contains a line break');
  return parts.join('\n');
}

/** Whether `signature` is the device key's over `text`. Any malformed input is simply not a valid signature. */
export function signatureHolds(publicKey: KeyObject, text: string, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify('sha256', Buffer.from(text, 'utf8'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}

/** Whether the device's time is close enough to the service's. */
export function timeAcceptable(deviceTime: number, now: Date): boolean {
  return Math.abs(deviceTime - Math.floor(now.getTime() / 1000)) <= DEVICE_CLOCK_SKEW_SECONDS;
}

/**
 * The device's public key as sent at enrollment: a JWK `{kty: "EC", crv: "P-256", x, y}` (WebCrypto's
 * export) or an SPKI DER in base64/base64url. Anything else, or another curve, is null.
 */
export function parseDevicePublicKey(value: unknown): KeyObject | null {
  let key: KeyObject;
  try {
    if (typeof value === 'string') {
      if (!/^[A-Za-z0-9+/_-]{40,400}={0,2}$/.test(value)) return null;
      key = createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const jwk = value as Record<string, unknown>;
      if (jwk['kty'] !== 'EC' || jwk['crv'] !== 'P-256' || typeof jwk['x'] !== 'string' || typeof jwk['y'] !== 'string') return null;
      if ('d' in jwk) return null;
      key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk['x'], y: jwk['y'] }, format: 'jwk' });
    } else return null;
  } catch {
    return null;
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return null;
  return key;
}

export function spkiOf(key: KeyObject): Buffer {
  return key.export({ type: 'spki', format: 'der' });
}

export function keyFromSpki(spki: Buffer): KeyObject {
  return createPublicKey({ key: spki, format: 'der', type: 'spki' });
}

/**
 * The server nonce of an approval: an HMAC of its id under a key derived from SECRET_ENCRYPTION_KEY
 * for this purpose alone. The app receives it with the pending approval and signs it with its
 * decision, so a decision is bound to an approval this service issued to this device; it needs no
 * storage and exists from the moment the approval does (a push may arrive before anything else is written).
 */
export function approvalNonceKey(encryptionKey: Buffer): KeyObject {
  return purposeKey(encryptionKey, 'twofold mobile-app approval nonce');
}

export function approvalNonce(key: KeyObject, approvalId: string, authenticatorId: string): string {
  return createHmac('sha256', key).update(`${approvalId}\n${authenticatorId}`).digest().subarray(0, 16).toString('base64url');
}

export function nonceMatches(key: KeyObject, approvalId: string, authenticatorId: string, nonce: string): boolean {
  const expected = createHash('sha256')
    .update(approvalNonce(key, approvalId, authenticatorId))
    .digest();
  return timingSafeEqual(expected, createHash('sha256').update(nonce).digest());
}

/** A decision's choice as signed: `approve`, `notMe`, or the number picked (10–99). */
export function choiceText(choice: ApprovalChoice): string {
  return choice.kind === 'number' ? String(choice.number) : choice.kind;
}

export function parseChoice(value: unknown): ApprovalChoice | null {
  if (value === 'approve') return { kind: 'approve' };
  if (value === 'notMe') return { kind: 'notMe' };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 10 && value <= 99) return { kind: 'number', number: value };
  return null;
}
