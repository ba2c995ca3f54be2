/**
 * node:crypto underneath otplib, and the fast HOTP primitive the verifiers use.
 *
 * otplib 13 ships only a noble (pure JS) crypto plugin; its `CryptoPlugin`
 * interface lets us plug node:crypto instead, which {@link nodeCryptoPlugin} does.
 * Verification does not go through otplib at all: it calls {@link hotpMatches},
 * which computes HMAC + dynamic truncation with node:crypto directly and writes the
 * candidate code into a reused buffer (see README, "Performance").
 */
import { createHmac, createSecretKey, KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CryptoPlugin } from 'otplib';
import type { OtpAlgorithm, OtpDigits } from './types';

/** @internal */
export type NodeHash = 'sha1' | 'sha256' | 'sha512';

/** @internal */
export const NODE_HASH: Readonly<Record<OtpAlgorithm, NodeHash>> = Object.freeze({
  SHA1: 'sha1',
  SHA256: 'sha256',
  SHA512: 'sha512',
});

function nodeHash(algorithm: string): NodeHash {
  // otplib's contract: case-insensitive, optional '-' or '_' before the size.
  const normalized = algorithm.toLowerCase().replace(/^sha[-_]?/, 'sha');
  if (normalized === 'sha1' || normalized === 'sha256' || normalized === 'sha512') return normalized;
  throw new RangeError('unsupported HMAC algorithm');
}

function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
}

/** An otplib `CryptoPlugin` backed by node:crypto (HMAC, CSPRNG, constant-time compare). */
export const nodeCryptoPlugin: CryptoPlugin = Object.freeze({
  name: 'node',
  algorithms: Object.freeze(['sha1', 'sha256', 'sha512'] as const),
  hmac(algorithm: string, key: Uint8Array, data: Uint8Array): Uint8Array {
    return createHmac(nodeHash(algorithm), hmacKey(key)).update(data).digest();
  },
  randomBytes(length: number): Uint8Array {
    return randomBytes(length);
  },
  constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
    const x = toBytes(a);
    const y = toBytes(b);
    return x.length === y.length && timingSafeEqual(x, y);
  },
});

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000];

/** @internal Write the 8-byte big-endian counter (RFC 4226 §5.2) into `out`. */
export function writeCounter(counter: number, out: Buffer): Buffer {
  out.writeUInt32BE(Math.floor(counter / 0x100000000), 0);
  out.writeUInt32BE(counter >>> 0, 4);
  return out;
}

/** @internal RFC 4226 §5.3 dynamic truncation: a 31-bit integer from the HMAC. */
export function dynamicTruncate(mac: Uint8Array): number {
  const offset = mac[mac.length - 1] & 0x0f;
  return ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
}

/**
 * @internal The secret as the key object every HMAC of one verification is keyed with. Node 24's
 * `createHmac` spends about 10 µs turning a byte key into a key object on every call (it tells a
 * byte key from a key object by catching a TypeError, and the error's stack trace is most of that):
 * 12 µs an HMAC keyed with bytes against 2 µs keyed with a key object made once (0.9 µs). Node 20
 * makes no difference between the two.
 */
export function hmacKey(secret: Uint8Array): KeyObject {
  return createSecretKey(secret);
}

/** @internal HOTP value (truncated HMAC modulo 10^digits) without building a string. */
export function hotpValue(hash: NodeHash, key: KeyObject, counter: number, digits: OtpDigits, scratch: Buffer): number {
  return dynamicTruncate(createHmac(hash, key).update(writeCounter(counter, scratch)).digest()) % POW10[digits];
}

/** @internal Reusable buffers for one digit count. */
export interface Scratch {
  /** The 8-byte counter message. */
  readonly counter: Buffer;
  /** The candidate code, as ASCII digits. */
  readonly code: Buffer;
  /** The submitted code, as ASCII digits. */
  readonly submitted: Buffer;
}

// Verification is synchronous and JavaScript is single-threaded per isolate, so one
// set of buffers per digit count can be reused by every call without allocation
// (each worker thread loads its own copy of this module).
const SCRATCH: Readonly<Record<OtpDigits, Scratch>> = {
  6: newScratch(6),
  7: newScratch(7),
  8: newScratch(8),
};

/** @internal */
export function newScratch(digits: OtpDigits): Scratch {
  return {
    counter: Buffer.alloc(8),
    code: Buffer.alloc(digits),
    submitted: Buffer.alloc(digits),
  };
}

/** @internal The shared scratch buffers for `digits`. */
export function scratchFor(digits: OtpDigits): Scratch {
  return SCRATCH[digits];
}

/**
 * @internal A submitted code as ASCII bytes (in `scratch.submitted`) if it has exactly
 * `digits` characters 0-9, else `null` (the caller answers "invalid" without computing
 * anything).
 */
export function codeBytes(code: unknown, digits: OtpDigits, scratch: Scratch = newScratch(digits)): Buffer | null {
  if (typeof code !== 'string' || code.length !== digits) return null;
  const out = scratch.submitted;
  for (let i = 0; i < digits; i++) {
    const c = code.charCodeAt(i);
    if (c < 48 || c > 57) return null;
    out[i] = c;
  }
  return out;
}

/**
 * @internal Write the HOTP for `counter` as ASCII digits into `scratch.code` and return it.
 */
export function writeHotp(hash: NodeHash, key: KeyObject, counter: number, digits: OtpDigits, scratch: Scratch): Buffer {
  let value = hotpValue(hash, key, counter, digits, scratch.counter);
  const out = scratch.code;
  for (let i = digits - 1; i >= 0; i--) {
    out[i] = 48 + (value % 10);
    value = (value / 10) | 0;
  }
  return out;
}

/**
 * @internal Does `code` (from {@link codeBytes}) equal the HOTP for `counter`?
 * Compared with `crypto.timingSafeEqual`; both buffers are `digits` bytes long.
 */
export function hotpMatches(hash: NodeHash, key: KeyObject, counter: number, digits: OtpDigits, code: Buffer, scratch: Scratch): boolean {
  return timingSafeEqual(writeHotp(hash, key, counter, digits, scratch), code);
}
