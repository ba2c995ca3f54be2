/**
 * HOTP (RFC 4226): generation through otplib, verification and resynchronisation
 * with node:crypto directly (see hmac.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { generateSync } from 'otplib';
import { NODE_HASH, codeBytes, hmacKey, hotpMatches, newScratch, nodeCryptoPlugin, scratchFor, writeHotp } from './hmac';
import { checkSecret } from './keys';
import {
  MAX_HOTP_LOOK_AHEAD,
  MAX_RESYNC_WINDOW,
  type OtpAlgorithm,
  type OtpDigits,
  checkAlgorithm,
  checkDigits,
  checkInteger,
} from './types';

/** Options common to the HOTP functions. */
export interface HotpOptions {
  /** The shared secret, 16 to 64 bytes. */
  secret: Uint8Array;
  /** Default 'SHA1'. */
  algorithm?: OtpAlgorithm;
  /** Default 6. */
  digits?: OtpDigits;
}

export interface GenerateHotpOptions extends HotpOptions {
  /** Moving factor, an integer from 0 to 2^53 - 1. */
  counter: number;
}

export interface VerifyHotpOptions extends HotpOptions {
  /** The code the user submitted. Anything but `digits` ASCII digits is simply invalid. */
  code: string;
  /** The next expected counter (one more than the last accepted one). */
  counter: number;
  /** How many counters after `counter` are also tried, 0 to 100. Default 10. */
  lookAhead?: number;
}

export type VerifyHotpResult =
  /** `counter`: the counter the code matched; store `counter + 1` as the next expected one. `delta`: matched − expected. */
  { valid: true; counter: number; delta: number } | { valid: false };

export interface ResyncHotpOptions extends HotpOptions {
  /** Two consecutive codes from the token, `code1` first. */
  code1: string;
  code2: string;
  /** The next expected counter, as stored on the server. */
  counter: number;
  /** `code1` may match a counter from `counter` to `counter + resyncWindow`. 0 to 1000, default 100. */
  resyncWindow?: number;
}

export type ResyncHotpResult =
  /** `counter`: the next expected counter, i.e. the counter of `code2` plus one. Store it. */
  { valid: true; counter: number } | { valid: false };

interface Checked {
  secret: Uint8Array;
  algorithm: OtpAlgorithm;
  digits: OtpDigits;
  counter: number;
}

function checkHotp(opts: HotpOptions & { counter: number }): Checked {
  if (opts === null || typeof opts !== 'object') throw new TypeError('options object expected');
  return {
    secret: checkSecret(opts.secret),
    algorithm: checkAlgorithm(opts.algorithm ?? 'SHA1'),
    digits: checkDigits(opts.digits ?? 6),
    counter: checkInteger('counter', opts.counter, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The HOTP code for `counter`, as a string of `digits` digits (leading zeros kept). */
export function generateHotp(opts: GenerateHotpOptions): string {
  const { secret, algorithm, digits, counter } = checkHotp(opts);
  return generateSync({
    strategy: 'hotp',
    secret,
    counter,
    algorithm: NODE_HASH[algorithm],
    digits,
    crypto: nodeCryptoPlugin,
  });
}

/**
 * Check `code` against counters `counter` … `counter + lookAhead`, in that order.
 * Bad options throw (OtpKeyError for the secret, RangeError otherwise); a malformed
 * code does not: it is just `{ valid: false }`.
 */
export function verifyHotp(opts: VerifyHotpOptions): VerifyHotpResult {
  const { secret, algorithm, digits, counter } = checkHotp(opts);
  const lookAhead = checkInteger('lookAhead', opts.lookAhead ?? 10, 0, MAX_HOTP_LOOK_AHEAD);
  const scratch = scratchFor(digits);
  const code = codeBytes(opts.code, digits, scratch);
  if (code === null) return { valid: false };
  const hash = NODE_HASH[algorithm];
  const key = hmacKey(secret);
  const last = Math.min(counter + lookAhead, Number.MAX_SAFE_INTEGER);
  for (let c = counter; c <= last; c++) {
    if (hotpMatches(hash, key, c, digits, code, scratch)) return { valid: true, counter: c, delta: c - counter };
  }
  return { valid: false };
}

/**
 * Resynchronise a counter that drifted beyond the look-ahead (RFC 4226 §7.4): the
 * user submits two consecutive codes; if `code1` matches some counter `c` in
 * `counter` … `counter + resyncWindow` and `code2` matches `c + 1`, the result is
 * `{ valid: true, counter: c + 2 }`.
 */
export function resyncHotp(opts: ResyncHotpOptions): ResyncHotpResult {
  const { secret, algorithm, digits, counter } = checkHotp(opts);
  const resyncWindow = checkInteger('resyncWindow', opts.resyncWindow ?? 100, 0, MAX_RESYNC_WINDOW);
  // Rare path: fresh buffers, since two submitted codes are held at once.
  const code1 = codeBytes(opts.code1, digits);
  const code2 = codeBytes(opts.code2, digits);
  if (code1 === null || code2 === null) return { valid: false };
  const hash = NODE_HASH[algorithm];
  const scratch = newScratch(digits);
  const key = hmacKey(secret);
  const last = Math.min(counter + resyncWindow, Number.MAX_SAFE_INTEGER - 2);
  // One HMAC per counter: each candidate is compared with code2 (if the previous
  // counter matched code1) and with code1.
  let previousMatchedCode1 = false;
  for (let c = counter; c <= last + 1; c++) {
    const candidate = writeHotp(hash, key, c, digits, scratch);
    if (previousMatchedCode1 && timingSafeEqual(candidate, code2)) return { valid: true, counter: c + 1 };
    previousMatchedCode1 = c <= last && timingSafeEqual(candidate, code1);
  }
  return { valid: false };
}
