import { Injectable } from '@nestjs/common';
import { ApprovalFactorKind, everyFactorDisabled, SignInFactorFacts, usableApprovalFactors } from '@twofold/domain';
import { SecretCipher, UserForCodeCheck } from '@twofold/persistence';
import { matchOtpCode, otpAuthenticators } from './access-otp';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/**
 * The `code` factor: the answer checked against the user's TOTP/HOTP authenticators. The code is spent
 * by the grant's own statement (its `spend`), so a time step or counter is accepted once across
 * requests, entry points and API processes, in one round trip less than a spend of its own.
 */
@Injectable()
export class CodeFactorCheck implements FactorCheck {
  constructor(private readonly cipher: SecretCipher) {}

  async check({ found, answer, now }: FactorCheckContext): Promise<FactorCheckResult> {
    // the decision checks a code factor only against a code
    if (answer.kind !== 'code') return { result: 'wrong' };
    const match = matchOtpCode(this.cipher, found.authenticators, answer.code, now);
    if (match.result !== 'matched') return match;
    const { kind, id, name } = match.authenticator;
    return { result: 'granted', factor: { kind, id, name }, spend: match.spend };
  }
}

/**
 * The user's second factors as the decision counts them: the authenticators whose codes this check
 * takes, the approval factors that can be asked (`reachable`: the kinds with a configured transport),
 * and whether any other factor exists (the phones are the lock's first-phone read).
 */
export function factorFactsOf(found: UserForCodeCheck | null, reachable: ReadonlySet<ApprovalFactorKind> = new Set()): SignInFactorFacts {
  if (!found) return { codes: 0, hasSecondFactor: false, everyFactorDisabled: false, approvals: [] };
  const hasPhones = found.firstPhone !== null;
  return {
    codes: otpAuthenticators(found.authenticators).length,
    hasSecondFactor: found.authenticators.length > 0 || hasPhones,
    everyFactorDisabled: everyFactorDisabled(found.authenticators, hasPhones),
    approvals: usableApprovalFactors(found.authenticators, reachable),
    // a phone takes codes by SMS and by call: without a gateway they go to the outbox
    phoneMethods: hasPhones ? ['sms', 'call'] : [],
  };
}
