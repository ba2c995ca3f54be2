import {
  AccountId,
  ACCESS_REQUEST_TTL_MINUTES,
  ACCESS_USER_MAX_RECENT_FAILED_CODES,
  HOTP_LOOK_AHEAD,
  OTP_TOKEN_DIGITS,
  TOTP_WINDOW_STEPS,
} from '@twofold/domain';
import { OtpAlgorithm, verifyHotp, verifyTotp } from '@twofold/otp';
import {
  AccessRequestsRepository,
  AuthenticatorEntity,
  AuthenticatorKind,
  AuthenticatorsRepository,
  SecretCipher,
} from '@twofold/persistence';

/** The kinds whose codes the access page and /access/requests/ra check (CONTRACT §7). */
export const OTP_KINDS: readonly AuthenticatorKind[] = ['Totp', 'TotpToken', 'HotpToken'];

export function otpAuthenticators(all: readonly AuthenticatorEntity[]): AuthenticatorEntity[] {
  return all.filter((authenticator) => OTP_KINDS.includes(authenticator.kind) && authenticator.secretEnc !== null);
}

function algorithmOf(authenticator: AuthenticatorEntity): OtpAlgorithm {
  const algorithm = authenticator.algorithm?.toUpperCase();
  return algorithm === 'SHA256' || algorithm === 'SHA512' ? algorithm : 'SHA1';
}

/**
 * What a code check came to, for the metrics. `replayed`: a code of a time step or counter already
 * spent (sent again, or spent by a parallel submission first): no grant, but not a guess either.
 */
export type OtpCheckResult = 'granted' | 'wrong' | 'replayed';

/**
 * Checks a code against the user's OTP authenticators and spends it: a TOTP time step or HOTP counter
 * is accepted through the repository's conditional UPDATE, so one code is accepted once, whatever
 * the number of parallel requests or API processes. Returns the authenticator that accepted it.
 */
export async function acceptOtpCode(
  repository: AuthenticatorsRepository,
  cipher: SecretCipher,
  authenticators: readonly AuthenticatorEntity[],
  code: string,
  now: Date,
  observe: (result: OtpCheckResult) => void = () => undefined,
): Promise<AuthenticatorEntity | null> {
  let replayed = false;
  if (!/^\d{6}$/.test(code)) {
    observe('wrong');
    return null;
  }
  for (const authenticator of otpAuthenticators(authenticators)) {
    const secret = cipher.decrypt('authenticator.secret', authenticator.secretEnc as Buffer);
    if (authenticator.kind === 'HotpToken') {
      const result = verifyHotp({
        secret,
        code,
        counter: Number(authenticator.hotpCounter ?? 0),
        lookAhead: HOTP_LOOK_AHEAD,
        algorithm: algorithmOf(authenticator),
        digits: OTP_TOKEN_DIGITS,
      });
      if (result.valid && (await repository.acceptHotpCounter(authenticator.accountId, authenticator.id, result.counter))) {
        observe('granted');
        return authenticator;
      }
      const counter = Number(authenticator.hotpCounter ?? 0);
      const spentFrom = Math.max(0, counter - HOTP_LOOK_AHEAD);
      // only on a refusal, for the metrics: was it a code of a counter already spent?
      replayed ||=
        result.valid ||
        (counter > 0 &&
          verifyHotp({
            secret,
            code,
            counter: spentFrom,
            lookAhead: counter - 1 - spentFrom,
            algorithm: algorithmOf(authenticator),
            digits: OTP_TOKEN_DIGITS,
          }).valid);
    } else {
      const result = verifyTotp({
        secret,
        code,
        time: now.getTime(),
        window: TOTP_WINDOW_STEPS,
        digits: OTP_TOKEN_DIGITS,
        afterTimeStep: authenticator.lastTimeStep === null ? undefined : Number(authenticator.lastTimeStep),
      });
      if (result.valid && (await repository.acceptTotpStep(authenticator.accountId, authenticator.id, result.timeStep))) {
        observe('granted');
        return authenticator;
      }
      // only on a refusal, for the metrics: a code of the window whose step was already spent
      replayed ||=
        result.valid ||
        (authenticator.lastTimeStep !== null &&
          verifyTotp({ secret, code, time: now.getTime(), window: TOTP_WINDOW_STEPS, digits: OTP_TOKEN_DIGITS }).valid);
    }
  }
  observe(replayed ? 'replayed' : 'wrong');
  return null;
}

/**
 * Guessing across many requests of one user (each has only five tries), on the page and through
 * /ra alike: from ACCESS_USER_MAX_RECENT_FAILED_CODES wrong codes over the requests of the last
 * ACCESS_REQUEST_TTL_MINUTES on, no code of that user is checked. Callers hold the user row lock.
 */
export async function userOutOfCodeAttempts(
  requests: AccessRequestsRepository,
  accountId: AccountId,
  userId: string,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - ACCESS_REQUEST_TTL_MINUTES * 60_000);
  return (await requests.recentFailedAttempts(accountId, userId, since)) >= ACCESS_USER_MAX_RECENT_FAILED_CODES;
}
