/**
 * TOTP (RFC 6238): generation through otplib, verification with node:crypto directly
 * (see hmac.ts).
 *
 * Units: `time` is milliseconds since the Unix epoch (like `Date.now()`); `step` and
 * `t0` are seconds, as in RFC 6238 (X and T0). The time step is
 * `T = floor((floor(time / 1000) - t0) / step)`.
 */
import { generateSync } from 'otplib';
import { NODE_HASH, codeBytes, hmacKey, hotpMatches, nodeCryptoPlugin, scratchFor } from './hmac';
import { checkSecret } from './keys';
import {
  MAX_DRIFT_STEPS,
  MAX_STEP_SECONDS,
  MAX_TOTP_WINDOW,
  MIN_STEP_SECONDS,
  type OtpAlgorithm,
  type OtpDigits,
  checkAlgorithm,
  checkDigits,
  checkInteger,
} from './types';

/** Clock options of the TOTP functions. */
export interface TotpClockOptions {
  /** Milliseconds since the Unix epoch. Default `Date.now()`. */
  time?: number;
  /** Step X in seconds, 1 to 3600. Default 30. */
  step?: number;
  /** T0 in Unix seconds: when step 0 starts. Default 0. */
  t0?: number;
}

export interface GenerateTotpOptions extends TotpClockOptions {
  /** The shared secret, 16 to 64 bytes. */
  secret: Uint8Array;
  /** Default 'SHA1'. */
  algorithm?: OtpAlgorithm;
  /** Default 6. */
  digits?: OtpDigits;
}

export interface VerifyTotpOptions extends GenerateTotpOptions {
  /** The code the user submitted. Anything but `digits` ASCII digits is simply invalid. */
  code: string;
  /** Steps accepted each side of the centre, 0 to 10. Default 1 (3 steps: previous, current, next). */
  window?: number;
  /**
   * Known clock drift of this user's device, in steps (−100 to 100, default 0): the
   * window is centred on `current + driftSteps` instead of `current`. Typically the
   * `delta` of the last successful verification.
   */
  driftSteps?: number;
  /**
   * Replay guard: steps `<= afterTimeStep` are never accepted. Pass the `timeStep` of
   * the last accepted code for this secret (and store the new one on success).
   */
  afterTimeStep?: number;
}

export type VerifyTotpResult =
  /**
   * `timeStep`: the step the code matched (store it as the next `afterTimeStep`).
   * `delta`: `timeStep` minus the current step — measured from the real clock, not
   * from the drift-shifted centre, so it can be stored as the next `driftSteps`.
   */
  { valid: true; timeStep: number; delta: number } | { valid: false };

interface CheckedClock {
  epochSeconds: number;
  step: number;
  t0: number;
  timeStep: number;
}

function checkClock(opts: TotpClockOptions): CheckedClock {
  const time = opts.time ?? Date.now();
  if (typeof time !== 'number' || !Number.isFinite(time) || time < 0 || time > Number.MAX_SAFE_INTEGER) {
    throw new RangeError('time must be a non-negative number of milliseconds since the Unix epoch');
  }
  const step = checkInteger('step', opts.step ?? 30, MIN_STEP_SECONDS, MAX_STEP_SECONDS);
  const t0 = checkInteger('t0', opts.t0 ?? 0, 0, Number.MAX_SAFE_INTEGER);
  const epochSeconds = Math.floor(time / 1000);
  if (epochSeconds < t0) throw new RangeError('time is before t0');
  return {
    epochSeconds,
    step,
    t0,
    timeStep: Math.floor((epochSeconds - t0) / step),
  };
}

/** The RFC 6238 time step T at `time` (default now). */
export function totpTimeStep(opts: TotpClockOptions = {}): number {
  return checkClock(opts).timeStep;
}

/** The TOTP code at `time` (default now), as a string of `digits` digits (leading zeros kept). */
export function generateTotp(opts: GenerateTotpOptions): string {
  if (opts === null || typeof opts !== 'object') throw new TypeError('options object expected');
  const secret = checkSecret(opts.secret);
  const algorithm = checkAlgorithm(opts.algorithm ?? 'SHA1');
  const digits = checkDigits(opts.digits ?? 6);
  const { epochSeconds, step, t0 } = checkClock(opts);
  return generateSync({
    strategy: 'totp',
    secret,
    epoch: epochSeconds,
    t0,
    period: step,
    algorithm: NODE_HASH[algorithm],
    digits,
    crypto: nodeCryptoPlugin,
  });
}

/**
 * Check `code` against the steps `centre - window` … `centre + window`, where
 * `centre = current step + driftSteps`, nearest to the centre first (centre, −1, +1,
 * −2, +2 …). Negative steps and steps `<= afterTimeStep` are skipped.
 * Bad options throw (OtpKeyError for the secret, RangeError otherwise); a malformed
 * code does not: it is just `{ valid: false }`.
 */
export function verifyTotp(opts: VerifyTotpOptions): VerifyTotpResult {
  if (opts === null || typeof opts !== 'object') throw new TypeError('options object expected');
  const secret = checkSecret(opts.secret);
  const algorithm = checkAlgorithm(opts.algorithm ?? 'SHA1');
  const digits = checkDigits(opts.digits ?? 6);
  const { timeStep: current } = checkClock(opts);
  const window = checkInteger('window', opts.window ?? 1, 0, MAX_TOTP_WINDOW);
  const driftSteps = checkInteger('driftSteps', opts.driftSteps ?? 0, -MAX_DRIFT_STEPS, MAX_DRIFT_STEPS);
  const afterTimeStep =
    opts.afterTimeStep === undefined ? -1 : checkInteger('afterTimeStep', opts.afterTimeStep, -1, Number.MAX_SAFE_INTEGER);
  const scratch = scratchFor(digits);
  const code = codeBytes(opts.code, digits, scratch);
  if (code === null) return { valid: false };
  const hash = NODE_HASH[algorithm];
  const key = hmacKey(secret);
  const centre = current + driftSteps;
  for (let i = 0; i <= 2 * window; i++) {
    // 0, -1, +1, -2, +2, ...
    const offset = i % 2 === 1 ? -(i + 1) / 2 : i / 2;
    const s = centre + offset;
    if (s < 0 || s <= afterTimeStep || s > Number.MAX_SAFE_INTEGER) continue;
    if (hotpMatches(hash, key, s, digits, code, scratch)) return { valid: true, timeStep: s, delta: s - current };
  }
  return { valid: false };
}
