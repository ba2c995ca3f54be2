import { ACCESS_REQUEST_MAX_FAILED_CODES, AccessRequestStatusName, effectiveAccessStatus } from './access-requests';

/**
 * What the access page knows when a code is submitted (CONTRACT §7), read by the service under the
 * row locks of the request and of its user, so that parallel submissions are decided one at a time.
 */
export interface SubmissionState {
  /** null: the request is gone */
  request: { status: AccessRequestStatusName; createdAt: Date } | null;
  now: Date;
  /** null: the request's user is gone */
  user: { isLocked: boolean } | null;
  /**
   * until when the user's codes from this address or through this resource are locked out
   * (code-lockouts.ts), null when they are not; read only for a user with OTP authenticators
   */
  codesLockedUntil: Date | null;
  /** the user's authenticators whose codes the page checks (Totp, TotpToken, HotpToken) */
  otpAuthenticators: number;
  /** the user has a second factor of any kind: an authenticator (OTP or not, enabled or not) or a phone */
  hasSecondFactor: boolean;
  /** every one of the user's factors is an authenticator an administrator disabled (everyFactorDisabled) */
  everyFactorDisabled: boolean;
  /** the page showed a secret to enroll on this request; it becomes the user's on the first valid code */
  secretShown: boolean;
}

/** Why a submission denies the request, before any code is checked. */
export type SubmissionRefusal = 'locked' | 'noOtpFactor' | 'factorsDisabled';

/** What a submission does before its code is looked at; the refusals come in this order. */
export type SubmissionDecision =
  /** the request or its user no longer exists */
  | { kind: 'gone' }
  /** decided before: the page shows how */
  | { kind: 'closed'; status: Exclude<AccessRequestStatusName, 'AwaitingAuthentication'> }
  /** still awaiting but past its time: it becomes Expired now */
  | { kind: 'expire' }
  /** the request becomes Denied, whatever the code */
  | { kind: 'refused'; reason: SubmissionRefusal }
  /** no code is checked until then (the right one neither); the request keeps waiting, nothing is counted */
  | { kind: 'lockedOut'; until: Date }
  /** nothing to check the code against yet: the page shows a secret to enroll, and no attempt is counted */
  | { kind: 'showSecret' }
  /** the code is checked against the secret shown on this request, or against the user's authenticators */
  | { kind: 'checkCode'; against: 'shownSecret' | 'authenticators' };

export function decideSubmission(state: SubmissionState): SubmissionDecision {
  const { request, user } = state;
  if (!request) return { kind: 'gone' };
  const status = effectiveAccessStatus(request, state.now);
  if (status !== 'AwaitingAuthentication')
    return request.status === 'AwaitingAuthentication' ? { kind: 'expire' } : { kind: 'closed', status };
  if (!user) return { kind: 'gone' };
  if (user.isLocked) return { kind: 'refused', reason: 'locked' };
  if (state.otpAuthenticators > 0) {
    // guessing from one place or through one resource: no code is looked at, so none answers a guess
    if (state.codesLockedUntil) return { kind: 'lockedOut', until: state.codesLockedUntil };
    return { kind: 'checkCode', against: 'authenticators' };
  }
  // the administrator disabled them: enrolling a new app here would undo that for whoever holds the URL
  if (state.everyFactorDisabled) return { kind: 'refused', reason: 'factorsDisabled' };
  // a factor the page cannot check (a phone, Telegram): enrolling an app over it would let whoever holds
  // the page's URL replace it, so the administrator sends an enrollment link instead
  if (state.hasSecondFactor) return { kind: 'refused', reason: 'noOtpFactor' };
  if (!state.secretShown) return { kind: 'showSecret' };
  return { kind: 'checkCode', against: 'shownSecret' };
}

/**
 * How checking the code came out: accepted (by the kind of authenticator); replayed (a code already
 * spent: not a guess, nothing counted); or wrong and counted on the request. `counted` is the request
 * after the count, null when it was no longer awaiting (another submission decided it first).
 */
export type CodeCheck<Authenticator> =
  | { result: 'granted'; authenticator: Authenticator }
  | { result: 'replayed' }
  | { result: 'wrong'; counted: { failedAttempts: number; status: AccessRequestStatusName } | null };

export type CodeCheckDecision<Authenticator> =
  /** the request is to be Granted by that authenticator (unless another submission granted it first) */
  | { kind: 'granted'; authenticator: Authenticator }
  /** the form again, with the attempts left on this request */
  | { kind: 'wrongCode'; attemptsLeft: number }
  /** the form again, saying the code was used already: wait for the next one */
  | { kind: 'alreadyUsed' }
  /** the count of this wrong code denied the request (the fifth), or it was decided meanwhile */
  | { kind: 'outOfCodes' };

export function decideCodeCheck<Authenticator>(check: CodeCheck<Authenticator>): CodeCheckDecision<Authenticator> {
  if (check.result === 'granted') return { kind: 'granted', authenticator: check.authenticator };
  if (check.result === 'replayed') return { kind: 'alreadyUsed' };
  const { counted } = check;
  if (!counted || counted.status !== 'AwaitingAuthentication') return { kind: 'outOfCodes' };
  return { kind: 'wrongCode', attemptsLeft: ACCESS_REQUEST_MAX_FAILED_CODES - counted.failedAttempts };
}
