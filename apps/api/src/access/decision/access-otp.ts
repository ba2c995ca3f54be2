import { HOTP_LOOK_AHEAD, OTP_TOKEN_DIGITS, TOTP_WINDOW_STEPS } from '@twofold/domain';
import { OtpAlgorithm, verifyHotp, verifyTotp } from '@twofold/otp';
import { AuthenticatorEntity, AuthenticatorKind, AuthenticatorsRepository, SecretCipher } from '@twofold/persistence';

/** The kinds whose codes the access page and /access/requests/ra check (CONTRACT §7). */
export const OTP_KINDS: readonly AuthenticatorKind[] = ['Totp', 'TotpToken', 'HotpToken'];

/** The ones whose codes are checked: of an OTP kind, with a secret, and not disabled by an administrator (issue 14). */
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
 * guess either, so it counts as no wrong code (issue 13, finding 4).
 */
export type OtpCheck = { result: 'granted'; authenticator: AuthenticatorEntity } | { result: 'wrong' } | { result: 'replayed' };

/**
 * Checks a code against the user's OTP authenticators and spends it: a TOTP time step or HOTP counter
 * is accepted through the repository's conditional UPDATE, so one code is accepted once, whatever
 * the number of parallel requests or API processes.
 */
export async function acceptOtpCode(
  repository: AuthenticatorsRepository,
  cipher: SecretCipher,
  authenticators: readonly AuthenticatorEntity[],
  code: string,
  now: Date,
): Promise<OtpCheck> {
  let replayed = false;
  if (!/^\d{6}$/.test(code)) return { result: 'wrong' };
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
      if (result.valid && (await repository.acceptHotpCounter(authenticator.accountId, authenticator.id, result.counter)))
        return { result: 'granted', authenticator };
      const counter = Number(authenticator.hotpCounter ?? 0);
      const spentFrom = Math.max(0, counter - HOTP_LOOK_AHEAD);
      // only on a refusal: was it a code of a counter already spent?
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
      if (result.valid && (await repository.acceptTotpStep(authenticator.accountId, authenticator.id, result.timeStep)))
        return { result: 'granted', authenticator };
      // only on a refusal: a code of the window whose step was already spent
      replayed ||=
        result.valid ||
        (authenticator.lastTimeStep !== null &&
          verifyTotp({ secret, code, time: now.getTime(), window: TOTP_WINDOW_STEPS, digits: OTP_TOKEN_DIGITS }).valid);
    }
  }
  return { result: replayed ? 'replayed' : 'wrong' };
}
