import { ValidationFailed, InputFields, OtpTokenKind } from '@twofold/domain';
import { generateTotp, OtpAlgorithm, resyncHotp, totpTimeStep } from '@twofold/otp';

/** HOTP: the first of the two codes may be this many counters ahead of the token's stored counter. */
export const HOTP_RESYNC_WINDOW = 1000;
/** TOTP: the token's clock may be off by this many 30-second steps either way (10 minutes). */
export const TOTP_RESYNC_STEPS = 20;

export const RESYNC_REFUSALS = {
  body: 'codes must be an array of two codes of 6 digits.',
  alreadyUsed: 'The codes were already used: enter the next two codes the token shows.',
  wrongOrder: 'The codes are in the wrong order: enter the earlier code first.',
  hotpNotFound: `The codes are not two consecutive codes of this token within ${HOTP_RESYNC_WINDOW} codes ahead of its counter.`,
  totpNotFound: 'The codes are not two consecutive codes of this token within 10 minutes of the current time.',
} as const;

/** The body of a resync: `{codes: [c1, c2]}`, two consecutive codes as the token showed them, earlier first. */
export function parseResync(body: unknown): [string, string] {
  const codes = InputFields.ofBody(body).get('codes');
  if (!Array.isArray(codes) || codes.length !== 2) throw new ValidationFailed(RESYNC_REFUSALS.body);
  const [first, second] = codes.map((code) => (typeof code === 'string' ? code.replace(/\s+/g, '') : ''));
  if (!/^\d{6}$/.test(first) || !/^\d{6}$/.test(second)) throw new ValidationFailed(RESYNC_REFUSALS.body);
  return [first, second];
}

/** The token's state as stored, and what a resync found. */
export interface TokenState {
  kind: OtpTokenKind;
  secret: Buffer;
  algorithm: OtpAlgorithm;
  /** HOTP: the next counter expected */
  hotpCounter: number;
  /** TOTP: the last step accepted */
  lastTimeStep: number | null;
}

export type ResyncFound =
  | { kind: 'hotp'; hotpCounter: number; skipped: number }
  | { kind: 'totp'; driftSteps: number; lastTimeStep: number }
  | { kind: 'refused'; message: string };

/**
 * Finds two consecutive codes of the token: HOTP from its counter up to HOTP_RESYNC_WINDOW ahead;
 * TOTP within TOTP_RESYNC_STEPS of now. Codes of counters or steps already spent are refused (a resync
 * must not bring back a used code), as are the right codes in the wrong order.
 */
export function findResync(token: TokenState, [first, second]: [string, string], now: Date): ResyncFound {
  const { secret, algorithm } = token;
  if (token.kind === 'HotpToken') {
    const counter = token.hotpCounter;
    const hotp = (code1: string, code2: string, from: number, window: number) =>
      resyncHotp({ secret, algorithm, code1, code2, counter: from, resyncWindow: window });
    const found = hotp(first, second, counter, HOTP_RESYNC_WINDOW);
    if (found.valid) return { kind: 'hotp', hotpCounter: found.counter, skipped: found.counter - 2 - counter };
    if (hotp(second, first, counter, HOTP_RESYNC_WINDOW).valid) return { kind: 'refused', message: RESYNC_REFUSALS.wrongOrder };
    const spentFrom = Math.max(0, counter - HOTP_RESYNC_WINDOW);
    if (counter > 0 && hotp(first, second, spentFrom, counter - 1 - spentFrom).valid)
      return { kind: 'refused', message: RESYNC_REFUSALS.alreadyUsed };
    return { kind: 'refused', message: RESYNC_REFUSALS.hotpNotFound };
  }
  const current = totpTimeStep({ time: now.getTime() });
  const codeAt = (step: number) => generateTotp({ secret, algorithm, time: step * 30_000 });
  let reversed = false;
  for (let step = current - TOTP_RESYNC_STEPS; step < current + TOTP_RESYNC_STEPS; step++) {
    const [a, b] = [codeAt(step), codeAt(step + 1)];
    if (a === first && b === second) {
      if (token.lastTimeStep !== null && step <= token.lastTimeStep) return { kind: 'refused', message: RESYNC_REFUSALS.alreadyUsed };
      return { kind: 'totp', driftSteps: step + 1 - current, lastTimeStep: step + 1 };
    }
    reversed ||= a === second && b === first;
  }
  return { kind: 'refused', message: reversed ? RESYNC_REFUSALS.wrongOrder : RESYNC_REFUSALS.totpNotFound };
}
