import { Injectable } from '@nestjs/common';
import { ApprovalFactorKind, approvalOutcomeOf } from '@twofold/domain';
import { ApprovalsRepository } from '@twofold/persistence';
import { ApprovalsService } from '../../approvals/approvals.service';
import { approvalResultOf } from './approval-result';
import { FactorCheck, FactorCheckContext, FactorCheckResult } from './sign-in';

/**
 * The `approval` factor: a person confirms the sign-in on their phone (a Telegram chat bound to them,
 * later the service's mobile app). Inside the attempt's transaction, under the user's row lock, it
 * only decides whether the person may be asked: push fatigue refuses a fourth pending approval and
 * any approval during a cooldown after "it wasn't me" answers, and a request asks once (a second
 * attempt on it waits for the same approval, or takes its answer). It answers
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
    const authenticator = found.authenticators.find((a) => a.id === approval.factor.id);
    const factor = { kind: approval.factor.kind, id: approval.factor.id, name: authenticator?.name ?? approval.factor.kind };
    // a request asks once: an attempt on a request that already asked (a second page, a retransmitted
    // challenge) waits for that approval, or takes what it came to
    const asked = requestId ? await this.rows.findByAccessRequest(accountId, requestId) : null;
    if (asked) {
      if (asked.status !== 'Pending' || asked.expiresAt.getTime() <= now.getTime()) {
        const status = asked.status === 'Pending' ? 'Expired' : asked.status;
        const named = { kind: asked.factor, id: asked.authenticatorId, name: asked.factor };
        return approvalResultOf({ outcome: approvalOutcomeOf(status) }, named);
      }
      const opened = { ...asked, authenticatorId: asked.authenticatorId ?? approval.factor.id };
      return { result: 'pending', factor, open: async () => opened };
    }
    // push fatigue, under the user's row lock: only a new approval is one more
    if (await this.approvals.fatigueOf(accountId, userId, now)) return { result: 'refused', refusal: { kind: 'tooManyApprovals' } };
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
