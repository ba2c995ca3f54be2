import { Injectable } from '@nestjs/common';
import { MAX_APPROVAL_WAIT_SECONDS, SignInRefusal } from '@twofold/domain';
import { ApprovalsService } from '../../approvals/approvals.service';
import { AccessDecisionService } from './access-decision.service';
import { approvalResultOf } from './approval-result';
import { FactorCheckResult, SignInAttempt, SignInOutcome } from './sign-in';

/**
 * The decision's second run (the person's answer applied to the stored request) takes milliseconds on
 * a working database. With one frozen or gone the call is answered Denied instead, at most this long
 * after the wait began and at least APPROVAL_RESUME_MIN_MS after the answer: clients give up at 60 s
 * (the directory server) or 65 s, and the wait is at most MAX_APPROVAL_WAIT_SECONDS (58) plus the
 * second it may take to record how it ended.
 */
export const APPROVAL_ANSWER_BUDGET_MS = (MAX_APPROVAL_WAIT_SECONDS + 1) * 1000;
export const APPROVAL_RESUME_MIN_MS = 500;
export const APPROVAL_RESUME_MAX_MS = 3_000;

type Pending = Extract<SignInOutcome, { kind: 'pending' }>;

/**
 * The wait of a call that asks a person to approve (`ra`, `md`, `ra/challenge`, `la`). The attempt is
 * decided as any other; when its factor is an approval, the decision records the request as waiting
 * and commits, and only then, holding no connection and no lock, the question is sent and the
 * person's answer awaited (bounded by APPROVAL_WAIT_SECONDS on the injected clock; a client that
 * hangs up cancels it, the service stopping ends it). The answer is applied by the decision's second
 * run on the stored request (`resume`), which decides the request's state, the user's lock and the IP
 * lists anew. Every path ends in an outcome: never an exception, never past the bound.
 */
@Injectable()
export class ApprovalWait {
  constructor(
    private readonly decision: AccessDecisionService,
    private readonly approvals: ApprovalsService,
  ) {}

  async run(
    attempt: SignInAttempt,
    options: { resume: (pending: Pending) => SignInAttempt; signal?: AbortSignal },
  ): Promise<SignInOutcome> {
    const outcome = await this.decision.run(attempt);
    if (outcome.kind !== 'pending') return outcome;
    // real time, not the injected clock: it bounds what the client waits for, whatever the database does
    const budgetEnds = Date.now() + APPROVAL_ANSWER_BUDGET_MS;
    const answered = await this.answerOf(outcome, options.signal);
    const { requestId, found, now } = outcome;
    const denied = (refusal: SignInRefusal): SignInOutcome => ({ kind: 'denied', refusal, requestId, found, now });
    const fallback = denied(answered.result === 'refused' ? answered.refusal : { kind: 'approvalCancelled' });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<SignInOutcome>((resolve) => {
      const bound = Math.max(APPROVAL_RESUME_MIN_MS, Math.min(APPROVAL_RESUME_MAX_MS, budgetEnds - Date.now()));
      timer = setTimeout(() => resolve(fallback), bound);
    });
    const resumed = this.decision.run(options.resume(outcome), answered).catch(() => fallback);
    return Promise.race([resumed, late]).finally(() => clearTimeout(timer));
  }

  /** Sends the question and waits for the person: their answer, or why there is none, as the approval factor's result. */
  private async answerOf(pending: Pending, signal: AbortSignal | undefined): Promise<FactorCheckResult> {
    const refused = (kind: SignInRefusal['kind']) => ({ result: 'refused', refusal: { kind } }) as FactorCheckResult;
    try {
      const delivery = await this.approvals.deliver(pending.approval);
      if (delivery.kind === 'undeliverable') return refused('approvalUndeliverable');
      const decision = await this.approvals.awaitDecision(pending.approval, { signal });
      return approvalResultOf(decision, pending.factor);
    } catch {
      return refused('approvalCancelled');
    }
  }
}
