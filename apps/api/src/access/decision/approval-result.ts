import { SignInRefusal } from '@twofold/domain';
import { ApprovalDecision } from '../../approvals/approvals.service';
import { AcceptedFactor, FactorCheckResult } from './sign-in';

/** What an approval came to, as the approval factor's result: granted by the factor asked, or why not. */
export function approvalResultOf(decision: Pick<ApprovalDecision, 'outcome'>, factor: AcceptedFactor): FactorCheckResult {
  const refused = (kind: SignInRefusal['kind']) => ({ result: 'refused', refusal: { kind } }) as FactorCheckResult;
  switch (decision.outcome) {
    case 'approved':
      return { result: 'granted', factor };
    case 'rejected':
      return refused('approvalRejected');
    case 'undeliverable':
      return refused('approvalUndeliverable');
    case 'cancelled':
      return refused('approvalCancelled');
    case 'expired':
    case 'pending':
      return refused('approvalNotConfirmed');
  }
}
