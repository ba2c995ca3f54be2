import { fromBase32 } from './bytes';

/**
 * RFC 6238 codes computed by WebCrypto: the secret the service gave at enrollment is imported once as
 * a non-extractable HMAC key (kept in IndexedDB as the CryptoKey itself), so neither the page's script
 * nor anyone reading the database can read the secret back; the app can only ask for codes.
 */
export interface TotpParameters {
  digits: number;
  period: number;
}

export function importTotpSecret(base32Secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase32(base32Secret), { name: 'HMAC', hash: 'SHA-1' }, false, ['sign']);
}

/** The code for the time step of `nowMs`, and the seconds it is still valid. */
export async function totpCode(key: CryptoKey, nowMs: number, parameters: TotpParameters): Promise<{ code: string; secondsLeft: number }> {
  const seconds = Math.floor(nowMs / 1000);
  const step = Math.floor(seconds / parameters.period);
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, counter));
  // RFC 4226 §5.3 dynamic truncation
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  const code = String(binary % 10 ** parameters.digits).padStart(parameters.digits, '0');
  return { code, secondsLeft: parameters.period - (seconds % parameters.period) };
}
