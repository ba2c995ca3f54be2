import { Inject, Injectable } from '@nestjs/common';
import { approvalOutcomeOf, Clock } from '@twofold/domain';
import { AccessRequestEntity, ApprovalEntity, ApprovalsRepository, UserForCodeCheck } from '@twofold/persistence';
import { ApprovalsService, OpenedApproval } from '../../approvals/approvals.service';
import { CLOCK } from '../../config/injection-tokens';
import { AccessDecisionService } from '../decision/access-decision.service';
import { otpAuthenticators } from '../decision/access-otp';
import { approvalResultOf } from '../decision/approval-result';
import { SignInOutcome } from '../decision/sign-in';
import { FORM_TOKEN_FIELD, AccessFormTokens } from './access-form-token';
import { AccessApprovalModel } from './access-page-approval.view';
import { APPROVAL_FIELD } from './access-page.form';
import { AccessPageAttempt } from './access-page.attempt';
import { AccessPageViews } from './access-page-views';

/**
 * How long one long poll of the page waits before it answers "still pending" and the page asks
 * again: well below the timeouts of proxies between the browser and the service.
 */
export const APPROVAL_POLL_SECONDS = 25;

/**
 * The access page's approvals. The question is sent when the page is first shown (not left to the
 * page's script: a browser that blocks scripts still gets the user their message), once per request;
 * the page then waits for the answer by long poll (`poll`, holding no connection) and posts its form,
 * which applies the answer through the one access decision (`resolve`) and ends as any sign-in.
 */
@Injectable()
export class AccessPageApprovals {
  constructor(
    private readonly approvals: ApprovalsService,
    private readonly rows: ApprovalsRepository,
    private readonly decision: AccessDecisionService,
    private readonly views: AccessPageViews,
    private readonly formTokens: AccessFormTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The approval this request asked, if it asked one. */
  asked(row: AccessRequestEntity): Promise<ApprovalEntity | null> {
    return this.rows.findByAccessRequest(row.accountId, row.id);
  }

  /** Sends the question of the approval a visit recorded; false when it could not be delivered (it is Undeliverable then). */
  async deliver(approval: OpenedApproval): Promise<boolean> {
    return (await this.approvals.deliver(approval)).kind === 'delivered';
  }

  /** Still waiting for an answer the user may give. */
  isWaiting(approval: ApprovalEntity): boolean {
    return approval.status === 'Pending' && this.clock.now().getTime() < approval.expiresAt.getTime();
  }

  async view(row: AccessRequestEntity, approval: Pick<ApprovalEntity, 'number' | 'factor'>, browserNonce: string, codeInstead: boolean) {
    const code = await this.views.code(row, browserNonce);
    const model: AccessApprovalModel = {
      resourceName: code.resourceName,
      identity: code.identity,
      number: approval.number ?? 0,
      factor: approval.factor,
      hidden: { [FORM_TOKEN_FIELD]: this.formTokens.issue(row.id, browserNonce), [APPROVAL_FIELD]: '1' },
      pollPath: `${encodeURIComponent(row.id)}/approval`,
      codeInstead,
      expiry: code.expiry,
    };
    return model;
  }

  /**
   * The page's form after the approval: the answer applied under the request's and the user's row
   * locks (decided anew: a user locked meanwhile is refused). `pending` while the user may still answer.
   */
  async resolve(row: AccessRequestEntity, attempt: AccessPageAttempt): Promise<SignInOutcome | 'pending' | 'notAsked'> {
    const approval = await this.asked(row);
    if (!approval) return 'notAsked';
    if (this.isWaiting(approval)) return 'pending';
    const status = approval.status === 'Pending' ? 'Expired' : approval.status;
    const factor = { kind: approval.factor, id: approval.authenticatorId, name: approval.factor };
    const answered = approvalResultOf({ outcome: approvalOutcomeOf(status) }, factor);
    return this.decision.run(attempt, answered);
  }

  /** The long poll: `decided` once the approval left Pending (or there is nothing to wait for), `pending` at the poll's bound. */
  async poll(row: AccessRequestEntity): Promise<'pending' | 'decided'> {
    const approval = await this.asked(row);
    if (!approval || !this.isWaiting(approval)) return 'decided';
    const bound = new Date(this.clock.now().getTime() + APPROVAL_POLL_SECONDS * 1000);
    const opened = { ...approval, authenticatorId: approval.authenticatorId ?? '' };
    const decision = await this.approvals.awaitDecision(opened, { bound });
    return decision.outcome === 'pending' ? 'pending' : 'decided';
  }
}

/** The user can also answer with a code ("enter a code instead"): of a token, or sent to the phone. */
export function hasCodeFactor(found: UserForCodeCheck | null): boolean {
  return found !== null && (otpAuthenticators(found.authenticators).length > 0 || found.firstPhone !== null);
}
