import { Injectable } from '@nestjs/common';
import { ApprovalFactorKind } from '@twofold/domain';
import { ApprovalsRepository } from '@twofold/persistence';
import { ApprovalsService } from '../../approvals/approvals.service';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/**
 * The `approval` factor: a person confirms the sign-in on their phone (a Telegram chat bound to them,
 * later the service's mobile app). Inside the attempt's transaction, under the user's row lock, it
 * only decides whether the person may be asked: push fatigue refuses a fourth pending approval and
 * any approval during a cooldown after "it wasn't me" answers, and a request asks once. It answers
 * `pending` with the step that records the approval once the request is written; the message is sent
 * and the answer awaited outside any transaction (ApprovalWait), and the answer comes back as this
 * factor's result in a new run.
 */
@Injectable()
export class ApprovalFactorCheck implements FactorCheck {
  constructor(
    private readonly approvals: ApprovalsService,
    private readonly rows: ApprovalsRepository,
  ) {}

  /** The kinds of approval factor this instance can ask now (a transport is configured). */
  reachableKinds(): ReadonlySet<ApprovalFactorKind> {
    return this.approvals.reachableKinds();
  }

  async check({ accountId, found, requestId, now, origin, approval }: FactorCheckContext): Promise<FactorCheckResult> {
    if (!approval) throw new Error('an approval is checked only with the factor the decision chose');
    const userId = found.user.id;
    if (await this.approvals.fatigueOf(accountId, userId, now)) return { result: 'refused', refusal: { kind: 'tooManyApprovals' } };
    // a request asks once: a second letter on a request that already asked (a retransmitted challenge) asks nobody again
    if (requestId && (await this.rows.findByAccessRequest(accountId, requestId)))
      return { result: 'refused', refusal: { kind: 'tooManyApprovals' } };
    const authenticator = found.authenticators.find((a) => a.id === approval.factor.id);
    const factor = { kind: approval.factor.kind, id: approval.factor.id, name: authenticator?.name ?? approval.factor.kind };
    return {
      result: 'pending',
      factor,
      open: async (accessRequestId) => {
        const subject = { accountId, accessRequestId, userId, ...origin };
        const opened = await this.approvals.open(subject, approval.factor, { withNumber: approval.withNumber });
        // the fatigue was read under the same row lock a moment ago
        if (opened.kind !== 'opened') throw new Error('push fatigue changed under the user lock');
        return opened.approval;
      },
    };
  }
}
