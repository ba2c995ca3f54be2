import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, NotFound, OtpTokenKind, ValidationFailed } from '@twofold/domain';
import { journalDetails, journalFacts } from '@twofold/journal';
import { OtpAlgorithm } from '@twofold/otp';
import { AuthenticatorsRepository, SecretCipher, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { AuthenticatorPath } from './authenticators.commands';
import { findResync } from './token-resync';

export interface TokenResyncedDto {
  /** TOTP: how far the token's clock is off, in seconds (positive: ahead) */
  driftSeconds?: number;
  /** HOTP: how many codes the token had been pressed for without them reaching the service */
  countersSkipped?: number;
}

/**
 * A token brought back in step with the service from two consecutive codes: an HOTP token's counter
 * moved forward, a TOTP token's clock drift stored and used by every code check from then on. The
 * user's row lock orders it with the code checks; the conditional UPDATE keeps a code accepted
 * meanwhile from being undone.
 */
@Injectable()
export class TokenResyncService {
  constructor(
    private readonly users: UsersRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async resync(accountId: AccountId, path: AuthenticatorPath<OtpTokenKind>, codes: [string, string]): Promise<TokenResyncedDto> {
    const { userId, kind, authenticatorId } = path;
    const user = await this.users.findByIdForUpdate(accountId, userId);
    if (!user) throw new NotFound('User');
    journalDetails.add(journalFacts.user(user));
    const authenticator = await this.authenticators.findOfUserForUpdate(accountId, user.id, authenticatorId);
    if (!authenticator || authenticator.kind !== kind || !authenticator.secretEnc) throw new NotFound('Authenticator');
    journalDetails.add(journalFacts.authenticator(authenticator));
    const found = findResync(
      {
        kind,
        secret: this.cipher.decrypt('authenticator.secret', authenticator.secretEnc),
        algorithm: algorithmOf(authenticator.algorithm),
        hotpCounter: Number(authenticator.hotpCounter ?? 0),
        lastTimeStep: authenticator.lastTimeStep === null ? null : Number(authenticator.lastTimeStep),
      },
      codes,
      this.clock.now(),
    );
    if (found.kind === 'refused') throw new ValidationFailed(found.message);
    const to =
      found.kind === 'hotp' ? { hotpCounter: found.hotpCounter } : { driftSteps: found.driftSteps, lastTimeStep: found.lastTimeStep };
    // under the user's and the token's row locks nothing can have moved; the condition says so should that change
    if (!(await this.authenticators.resync(accountId, authenticator.id, authenticator, to)))
      throw new ValidationFailed('The token was used meanwhile: try the resync again.');
    if (found.kind === 'hotp') {
      journalDetails.add({ CountersSkipped: String(found.skipped) });
      return { countersSkipped: found.skipped };
    }
    journalDetails.add({ DriftSeconds: String(found.driftSteps * 30) });
    return { driftSeconds: found.driftSteps * 30 };
  }
}

function algorithmOf(stored: string | null): OtpAlgorithm {
  const algorithm = stored?.toUpperCase();
  return algorithm === 'SHA256' || algorithm === 'SHA512' ? algorithm : 'SHA1';
}
