/** HMAC hash of HOTP/TOTP (RFC 4226 uses SHA1; RFC 6238 adds SHA256 and SHA512). */
export type OtpAlgorithm = 'SHA1' | 'SHA256' | 'SHA512';

/** Number of digits of a code. RFC 4226 allows 6 to 8; 6 and 8 are the common ones. */
export type OtpDigits = 6 | 7 | 8;

export const OTP_ALGORITHMS: readonly OtpAlgorithm[] = Object.freeze(['SHA1', 'SHA256', 'SHA512']);
export const OTP_DIGITS: readonly OtpDigits[] = Object.freeze([6, 7, 8]);

/** Smallest accepted secret, in bytes (RFC 4226 §4 R6: at least 128 bits). */
export const MIN_KEY_BYTES = 16;
/** Largest accepted secret, in bytes (the SHA-512 block is 128 bytes; RFC 6238's SHA-512 seed is 64). */
export const MAX_KEY_BYTES = 64;

/** Largest TOTP `window` (steps each side of the centre) accepted by `verifyTotp`. */
export const MAX_TOTP_WINDOW = 10;
/** Largest absolute `driftSteps` accepted by `verifyTotp`. */
export const MAX_DRIFT_STEPS = 100;
/** Largest HOTP `lookAhead` accepted by `verifyHotp`. */
export const MAX_HOTP_LOOK_AHEAD = 100;
/** Largest HOTP `resyncWindow` accepted by `resyncHotp`. */
export const MAX_RESYNC_WINDOW = 1000;
/** Smallest and largest TOTP step, in seconds (the bounds otplib's guardrails enforce). */
export const MIN_STEP_SECONDS = 1;
export const MAX_STEP_SECONDS = 3600;

/** @internal */
export function checkAlgorithm(algorithm: unknown): OtpAlgorithm {
  if (algorithm === 'SHA1' || algorithm === 'SHA256' || algorithm === 'SHA512') return algorithm;
  throw new RangeError("algorithm must be 'SHA1', 'SHA256' or 'SHA512'");
}

/** @internal */
export function checkDigits(digits: unknown): OtpDigits {
  if (digits === 6 || digits === 7 || digits === 8) return digits;
  throw new RangeError('digits must be 6, 7 or 8');
}

/** @internal Integer in [min, max], else RangeError naming the option. */
export function checkInteger(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
