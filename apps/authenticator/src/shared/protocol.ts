import { toBase64Url } from './bytes';

/**
 * The app's side of the device protocol. Every request is signed by the device's P-256 key (made by
 * WebCrypto, not extractable): ECDSA / SHA-256 over the lines of `canonicalText`, the signature in the
 * IEEE P1363 form WebCrypto gives (r‖s, 64 bytes), base64url. The counter must grow with every
 * request of a device and the time be close to the service's: nothing a request carries can be sent
 * again. The device's id is the enrollment token at enrollment.
 */
export const SIGNATURE_VERSION = 'twofold-app-1';

export type DeviceOperation = 'enroll' | 'approvals' | 'decision' | 'subscription';

export type Choice = 'approve' | 'notMe' | number;

export interface SubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export function canonicalText(operation: DeviceOperation, who: string, counter: number, time: number, fields: readonly string[]): string {
  const parts = [SIGNATURE_VERSION, operation, who, String(counter), String(time), ...fields];
  if (parts.some((part) => part.includes('\n'))) throw new Error('a signed field contains a line break');
  return parts.join('\n');
}

/** A subscription's part of a signed text: its endpoint and keys, or three dashes for none. */
export function subscriptionFields(subscription: SubscriptionKeys | null): string[] {
  return subscription ? [subscription.endpoint, subscription.keys.p256dh, subscription.keys.auth] : ['-', '-', '-'];
}

export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, new TextEncoder().encode(text));
  return toBase64Url(signature);
}

/** A new device key: the private half cannot be exported, by the app or anyone else. */
export function newDeviceKey(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
}

/** The public half as the service takes it: a JWK of the curve point only. */
export async function publicJwk(publicKey: CryptoKey): Promise<{ kty: string; crv: string; x: string; y: string }> {
  const jwk = await crypto.subtle.exportKey('jwk', publicKey);
  return { kty: jwk.kty as string, crv: jwk.crv as string, x: jwk.x as string, y: jwk.y as string };
}

/**
 * Counters: the device's clock in milliseconds, and always above the last one used, so two requests
 * in the same millisecond, or a clock set back, still count up.
 */
export class DeviceCounter {
  constructor(private last = 0) {}

  next(nowMs: number): number {
    this.last = Math.max(Math.floor(nowMs), this.last + 1);
    return this.last;
  }
}

/** The signature fields of one request: `who` the device id (the token at enrollment). */
export async function signedFields(
  privateKey: CryptoKey,
  operation: DeviceOperation,
  who: string,
  counter: number,
  nowMs: number,
  fields: readonly string[],
): Promise<{ counter: number; time: number; signature: string }> {
  const time = Math.floor(nowMs / 1000);
  return { counter, time, signature: await signText(privateKey, canonicalText(operation, who, counter, time, fields)) };
}
