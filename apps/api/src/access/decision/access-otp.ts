import { HOTP_LOOK_AHEAD, OTP_TOKEN_DIGITS, TOTP_WINDOW_STEPS } from '@twofold/domain';
import { OtpAlgorithm, verifyHotp, verifyTotp } from '@twofold/otp';
import { AuthenticatorEntity, AuthenticatorKind, AuthenticatorsRepository, OtpSpend, SecretCipher } from '@twofold/persistence';

/**
 * The kinds whose codes the access page and /access/requests/ra check. `MobileApp`: the service's own
 * app holds a TOTP secret given at its enrollment (devices enrolled before that have none: no codes).
 */
export const OTP_KINDS: readonly AuthenticatorKind[] = ['Totp', 'TotpToken', 'HotpToken', 'MobileApp'];

/** The ones whose codes are checked: of an OTP kind, with a secret, and not disabled by an administrator. */
export function otpAuthenticators(all: readonly AuthenticatorEntity[]): AuthenticatorEntity[] {
  return all.filter(
    (authenticator) => OTP_KINDS.includes(authenticator.kind) && authenticator.secretEnc !== null && !authenticator.disabled,
  );
}

function algorithmOf(authenticator: AuthenticatorEntity): OtpAlgorithm {
  const algorithm = authenticator.algorithm?.toUpperCase();
  return algorithm === 'SHA256' || algorithm === 'SHA512' ? algorithm : 'SHA1';
}

/**
 * What a code check came to. `replayed`: a code of a time step or counter already spent (sent again
 * by a retransmitting RADIUS client, or spent by a parallel submission first): no grant, but not a
 * guess either, so it counts as no wrong code.
 */
export type OtpCheck = { result: 'granted'; authenticator: AuthenticatorEntity } | { result: 'wrong' } | { result: 'replayed' };

/** A code's match before it is spent: the authenticator that answers for its secret, and its time step or counter to spend. */
export type OtpMatch =
  | { result: 'matched'; authenticator: AuthenticatorEntity; spend: OtpSpend }
  | { result: 'wrong' }
  | { result: 'replayed' };

/**
 * The user's authenticators that hold one secret: codes of one key, whichever row they arrive through.
 * The replay state (the last TOTP time step, the next HOTP counter) belongs to the secret, not to the
 * row: the same key registered twice, or a copy moved back to its user, must not take each code once
 * per row. The group's state is the furthest of its rows', and an accepted code is spent on all of them.
 */
interface SecretGroup {
  /** the row that answers for the group: the first enrolled */
  authenticator: AuthenticatorEntity;
  ids: string[];
  secret: Buffer;
  hotp: boolean;
  algorithm: OtpAlgorithm;
  /** HOTP: the furthest next-expected counter of the rows */
  hotpCounter: number;
  /** TOTP: the latest time step spent on any row, or null */
  lastTimeStep: number | null;
  /** TOTP: the token's clock drift in steps, as its last resync found it (the first row with one) */
  driftSteps: number;
}

function secretGroups(cipher: SecretCipher, authenticators: readonly AuthenticatorEntity[]): SecretGroup[] {
  const groups = new Map<string, SecretGroup>();
  const enrolledFirst = [...authenticators].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  for (const authenticator of enrolledFirst) {
    const secret = cipher.decrypt('authenticator.secret', authenticator.secretEnc as Buffer);
    const hotp = authenticator.kind === 'HotpToken';
    const algorithm = algorithmOf(authenticator);
    // TOTP kinds (the app and TOTP tokens) run the same clock: one key is one sequence of codes for both
    const family = hotp ? `hotp:${algorithm}` : 'totp';
    const key = `${family}:${secret.toString('hex')}`;
    const counter = Number(authenticator.hotpCounter ?? 0);
    const step = authenticator.lastTimeStep === null ? null : Number(authenticator.lastTimeStep);
    const group = groups.get(key);
    if (!group) {
      const driftSteps = authenticator.totpDriftSteps ?? 0;
      groups.set(key, {
        authenticator,
        ids: [authenticator.id],
        secret,
        hotp,
        algorithm,
        hotpCounter: counter,
        lastTimeStep: step,
        driftSteps,
      });
      continue;
    }
    if (group.driftSteps === 0) group.driftSteps = authenticator.totpDriftSteps ?? 0;
    group.ids.push(authenticator.id);
    group.hotpCounter = Math.max(group.hotpCounter, counter);
    if (step !== null) group.lastTimeStep = group.lastTimeStep === null ? step : Math.max(group.lastTimeStep, step);
  }
  return [...groups.values()];
}

/**
 * Checks a code against the user's OTP authenticators, as read with the user's row lock: the first
 * secret whose code it is and whose time step or counter is not spent yet. Nothing is written: the
 * match is spent by the repository's conditional UPDATE (otpSpendUpdate), alone (acceptOtpCode) or in
 * the grant's own statement, so one code is accepted once whatever the number of parallel requests or
 * API processes, and once per secret whatever the number of the user's rows that hold it.
 */
export function matchOtpCode(cipher: SecretCipher, authenticators: readonly AuthenticatorEntity[], code: string, now: Date): OtpMatch {
  let replayed = false;
  if (!/^\d{6}$/.test(code)) return { result: 'wrong' };
  for (const group of secretGroups(cipher, otpAuthenticators(authenticators))) {
    const { authenticator, secret, algorithm, ids } = group;
    if (group.hotp) {
      const counter = group.hotpCounter;
      const result = verifyHotp({ secret, code, counter, lookAhead: HOTP_LOOK_AHEAD, algorithm, digits: OTP_TOKEN_DIGITS });
      if (result.valid) return { result: 'matched', authenticator, spend: { kind: 'hotp', ids, counter: result.counter } };
      const spentFrom = Math.max(0, counter - HOTP_LOOK_AHEAD);
      // only on a refusal: was it a code of a counter already spent?
      replayed ||=
        counter > 0 &&
        verifyHotp({ secret, code, counter: spentFrom, lookAhead: counter - 1 - spentFrom, algorithm, digits: OTP_TOKEN_DIGITS }).valid;
    } else {
      const totpOf = (afterTimeStep: number | undefined) =>
        verifyTotp({
          secret,
          code,
          time: now.getTime(),
          window: TOTP_WINDOW_STEPS,
          digits: OTP_TOKEN_DIGITS,
          driftSteps: group.driftSteps,
          afterTimeStep,
        });
      const result = totpOf(group.lastTimeStep ?? undefined);
      if (result.valid) return { result: 'matched', authenticator, spend: { kind: 'totp', ids, timeStep: result.timeStep } };
      // only on a refusal: a code of the window whose step was already spent
      replayed ||= group.lastTimeStep !== null && totpOf(undefined).valid;
    }
  }
  return { result: replayed ? 'replayed' : 'wrong' };
}

/** A code matched (matchOtpCode) and spent at once: `replayed` when its time step or counter was spent first. */
export async function acceptOtpCode(
  repository: AuthenticatorsRepository,
  cipher: SecretCipher,
  authenticators: readonly AuthenticatorEntity[],
  code: string,
  now: Date,
): Promise<OtpCheck> {
  const match = matchOtpCode(cipher, authenticators, code, now);
  if (match.result !== 'matched') return match;
  const spent = await repository.spend(match.authenticator.accountId, match.spend);
  return spent ? { result: 'granted', authenticator: match.authenticator } : { result: 'replayed' };
}
