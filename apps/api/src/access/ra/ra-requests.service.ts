import { Injectable } from '@nestjs/common';
import { accessLanguageOf } from '@twofold/domain';
import { AccessRequestChannel } from '@twofold/persistence';
import { ResourcePrincipal } from '../../auth/principal';
import { ModelEnvelope } from '../../http/envelope';
import { ApprovalWait } from '../decision/approval-wait';
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
    private readonly wait: ApprovalWait,
    private readonly attempts: RaAttempts,
  ) {}

  /**
   * `POST /access/requests/ra`, `/md` and `/la`: with a code, checked in one step; without one (null,
   * empty, absent) the request waits for `/ra/challenge`, or, for a user whose only factors are
   * approval factors, the answer is held while the person approves on their phone; a delivery letter
   * (`t`, `m`) asks that approval. `la` is always an approval. `signal`: the client hung up.
   */
  async passCode(
    principal: ResourcePrincipal,
    channel: Exclude<AccessRequestChannel, 'page'>,
    input: RaRequestCommand,
    signal?: AbortSignal,
  ): Promise<ModelEnvelope<RaModelDto>> {
    const outcome = await this.wait.run(this.attempts.passCode(principal, channel, input), {
      signal,
      resume: (pending) =>
        this.attempts.approvalAnswered(principal, pending.requestId as string, pending.found?.user.identity ?? input.identity),
    });
    return raAnswerOf(outcome, input.language, outcome.found?.user.identity ?? input.identity);
  }

  /**
   * `POST /access/requests/ra/challenge` `{identity, challenge, requestId}`: the second step. A
   * wrong code leaves the request waiting until its five attempts are spent; a request that is not the
   * caller's to continue is left unchanged, and an identity the account does not know is
   * `UserNotRegistered` as on `ra`; `t` or `m` typed at the prompt asks the user's approval factor and
   * holds the answer as `ra` does. The answer is in the language of the `ra` step.
   */
  async challenge(principal: ResourcePrincipal, input: RaChallengeCommand, signal?: AbortSignal): Promise<ModelEnvelope<RaModelDto>> {
    const attempt = this.attempts.challenge(principal, input);
    const outcome = await this.wait.run(attempt, {
      signal,
      resume: (pending) =>
        this.attempts.approvalAnswered(principal, pending.requestId as string, attempt.request?.identity ?? input.identity),
    });
    const request = attempt.request;
    if (!request) return raAnswerOf(outcome, input.language, input.identity);
    return raAnswerOf(outcome, accessLanguageOf(request.language), request.identity);
  }
}
