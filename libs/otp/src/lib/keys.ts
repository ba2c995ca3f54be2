/**
 * Key handling: strict hex and Base32 (RFC 4648) parsing, Base32 encoding, random secrets.
 */
import { randomBytes } from 'node:crypto';
import { ScureBase32Plugin } from 'otplib';
import { OtpKeyError } from './errors';
import { MAX_KEY_BYTES, MIN_KEY_BYTES, checkInteger } from './types';

const base32 = new ScureBase32Plugin();

const HEX = /^[0-9a-fA-F]*$/;
// Upper- or lower-case RFC 4648 alphabet, then optional padding at the very end.
const BASE32 = /^[A-Za-z2-7]*=*$/;
// Unpadded lengths an RFC 4648 Base32 encoding can have, modulo 8.
const BASE32_LENGTHS = new Set([0, 2, 4, 5, 7]);

/**
 * Parse a hex-encoded key (upper or lower case, no prefix, no whitespace) into a
 * 16- to 64-byte Buffer.
 *
 * @throws {OtpKeyError} `KEY_INVALID_TYPE`, `KEY_NOT_HEX`, `KEY_ODD_LENGTH`, `KEY_TOO_SHORT`, `KEY_TOO_LONG`
 */
export function parseHexKey(hex: string): Buffer {
  if (typeof hex !== 'string') throw new OtpKeyError('KEY_INVALID_TYPE', 'hex key must be a string');
  if (!HEX.test(hex)) throw new OtpKeyError('KEY_NOT_HEX', 'hex key contains a character that is not a hex digit');
  if (hex.length % 2 !== 0) throw new OtpKeyError('KEY_ODD_LENGTH', 'hex key has an odd number of digits');
  checkHexLength(hex.length / 2);
  return Buffer.from(hex, 'hex');
}

function checkHexLength(bytes: number): void {
  if (bytes < MIN_KEY_BYTES) {
    throw new OtpKeyError('KEY_TOO_SHORT', `key is ${bytes} bytes; at least ${MIN_KEY_BYTES} are required`);
  }
  if (bytes > MAX_KEY_BYTES) {
    throw new OtpKeyError('KEY_TOO_LONG', `key is ${bytes} bytes; at most ${MAX_KEY_BYTES} are allowed`);
  }
}

/** Encode bytes as RFC 4648 Base32, upper case, without padding (the form authenticator apps expect). */
export function toBase32(buf: Uint8Array): string {
  if (!(buf instanceof Uint8Array)) throw new OtpKeyError('KEY_INVALID_TYPE', 'toBase32 expects a Buffer or Uint8Array');
  return base32.encode(buf, { padding: false });
}

/**
 * Parse an RFC 4648 Base32 key into a 16- to 64-byte Buffer.
 *
 * Letters may be upper or lower case. Padding is not required; if present it must
 * be the correct trailing `=` run of a padded encoding. Whitespace, separators and
 * non-zero trailing bits are refused.
 *
 * @throws {OtpKeyError} `KEY_INVALID_TYPE`, `KEY_NOT_BASE32`, `KEY_BASE32_BAD_LENGTH`,
 *   `KEY_BASE32_TOO_SHORT`, `KEY_BASE32_TOO_LONG`
 */
export function parseBase32Key(str: string): Buffer {
  if (typeof str !== 'string') throw new OtpKeyError('KEY_INVALID_TYPE', 'Base32 key must be a string');
  if (!BASE32.test(str)) {
    throw new OtpKeyError('KEY_NOT_BASE32', 'Base32 key contains a character outside the RFC 4648 alphabet');
  }
  const unpadded = str.replace(/=+$/, '');
  const padding = str.length - unpadded.length;
  if (!BASE32_LENGTHS.has(unpadded.length % 8) || (padding > 0 && (padding >= 8 || str.length % 8 !== 0))) {
    throw new OtpKeyError('KEY_BASE32_BAD_LENGTH', 'Base32 key has a length no RFC 4648 encoding has');
  }
  const bytes = Math.floor((unpadded.length * 5) / 8);
  if (bytes < MIN_KEY_BYTES) {
    throw new OtpKeyError('KEY_BASE32_TOO_SHORT', `key is ${bytes} bytes; at least ${MIN_KEY_BYTES} are required`);
  }
  if (bytes > MAX_KEY_BYTES) {
    throw new OtpKeyError('KEY_BASE32_TOO_LONG', `key is ${bytes} bytes; at most ${MAX_KEY_BYTES} are allowed`);
  }
  let decoded: Uint8Array;
  try {
    decoded = base32.decode(unpadded.toUpperCase());
  } catch {
    // The alphabet and length are already checked: what is left is non-zero trailing
    // bits. The library's message is dropped so that no key material can leak.
    throw new OtpKeyError('KEY_NOT_BASE32', 'Base32 key is not canonical (non-zero trailing bits)');
  }
  return Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
}

/** Options of {@link generateSecret}. */
export interface GenerateSecretOptions {
  /** Number of random bytes, 16 to 64. Default 20 (160 bits, RFC 4226's recommendation). */
  bytes?: number;
}

/** A new random secret from the operating system's CSPRNG. */
export function generateSecret(opts: GenerateSecretOptions = {}): Buffer {
  const bytes = checkInteger('bytes', opts.bytes ?? 20, MIN_KEY_BYTES, MAX_KEY_BYTES);
  return randomBytes(bytes);
}

/**
 * @internal Check a raw secret passed in options: a Buffer/Uint8Array of 16 to 64 bytes.
 * @throws {OtpKeyError} `KEY_INVALID_TYPE`, `KEY_TOO_SHORT`, `KEY_TOO_LONG`
 */
export function checkSecret(secret: unknown): Uint8Array {
  if (!(secret instanceof Uint8Array)) throw new OtpKeyError('KEY_INVALID_TYPE', 'secret must be a Buffer or Uint8Array');
  checkHexLength(secret.length);
  return secret;
}
