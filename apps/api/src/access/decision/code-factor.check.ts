import { Injectable } from '@nestjs/common';
import { AuthenticatorsRepository, SecretCipher } from '@twofold/persistence';
import { acceptOtpCode } from './access-otp';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/**
 * The `code` factor: the answer checked against the user's TOTP/HOTP authenticators and spent, so a
 * time step or counter is accepted once across requests, entry points and API processes.
 */
@Injectable()
export class CodeFactorCheck implements FactorCheck {
  constructor(
    private readonly authenticators: AuthenticatorsRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async check({ found, answer, now }: FactorCheckContext): Promise<FactorCheckResult> {
    // the decision checks a code factor only against a code
    if (answer.kind !== 'code') return { result: 'wrong' };
    const check = await acceptOtpCode(this.authenticators, this.cipher, found.authenticators, answer.code, now);
    if (check.result !== 'granted') return check;
    const { kind, id, name } = check.authenticator;
    return { result: 'granted', factor: { kind, id, name } };
  }
}
