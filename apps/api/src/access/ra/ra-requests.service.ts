import { Injectable } from '@nestjs/common';
import { accessLanguageOf } from '@twofold/domain';
import { AccessRequestChannel } from '@twofold/persistence';
import { ResourcePrincipal } from '../../auth/principal';
import { ModelEnvelope } from '../../http/envelope';
import { AccessDecisionService } from '../decision/access-decision.service';
import { raAnswerOf } from './ra-answer';
import { RaAttempts } from './ra-attempts';
import { RaChallengeCommand, RaRequestCommand } from './ra.commands';
import { RaModelDto } from './ra.dto';

/**
 * The `ra` family: codes checked without a browser, for a RADIUS adapter (VPN, RD
 * Gateway) and a directory server's LDAP bind, decided like every other sign-in by
 * AccessDecisionService. Every outcome is HTTP 200 with the whole model: clients read
 * any other status as an outage.
 */
@Injectable()
export class RaRequestsService {
  constructor(
    private readonly decision: AccessDecisionService,
    private readonly attempts: RaAttempts,
  ) {}

  /**
   * `POST /access/requests/ra` and `/md`: with a code, checked in one step; without one (null, empty,
   * absent) the request waits for `/ra/challenge`; a delivery letter is refused as unavailable.
   */
  async passCode(
    principal: ResourcePrincipal,
    channel: Exclude<AccessRequestChannel, 'page'>,
    input: RaRequestCommand,
  ): Promise<ModelEnvelope<RaModelDto>> {
    const outcome = await this.decision.run(this.attempts.passCode(principal, channel, input));
    return raAnswerOf(outcome, input.language, outcome.found?.user.identity ?? input.identity);
  }

  /**
   * `POST /access/requests/ra/challenge` `{identity, challenge, requestId}`: the second step. A
   * wrong code leaves the request waiting until its five attempts are spent; a request that is not the
   * caller's to continue is left unchanged, and an identity the account does not know is
   * `UserNotRegistered` as on `ra`. The answer is in the language of the `ra` step.
   */
  async challenge(principal: ResourcePrincipal, input: RaChallengeCommand): Promise<ModelEnvelope<RaModelDto>> {
    const attempt = this.attempts.challenge(principal, input);
    const outcome = await this.decision.run(attempt);
    const request = attempt.request;
    if (!request) return raAnswerOf(outcome, input.language, input.identity);
    return raAnswerOf(outcome, accessLanguageOf(request.language), request.identity);
  }
}
