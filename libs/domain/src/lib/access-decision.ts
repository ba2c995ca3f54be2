import { ACCESS_REQUEST_MAX_FAILED_CODES, AccessRequestStatusName, effectiveAccessStatus } from './access-requests';
import { ApprovalFactor, planSecondFactor, SecondFactorCall } from './approvals';
import { DeliveryMethod, PassCodeIntent } from './ra-requests';
import { looksLikeStandbyCode } from './standby-codes';

/**
 * One access decision for every way of signing in: the access page, `ra`, `ra/challenge` and `md`.
 * Each of them runs the same steps in the same order, decided here and nowhere else:
 *
 *   1. the request: gone, decided, expired, or not the caller's to continue;
 *   2. the user: unknown, locked;
 *   3. the IP verdict of the user's address: Deny refuses, Bypass grants without a second factor;
 *   4. the factor that answers: none usable (and why), the page's enrollment of a newcomer;
 *   5. the code lockouts of a factor that can be guessed;
 *   6. the factor's check, then what its result does: grant, count the wrong code or forget the
 *      streaks, deny, or wait.
 *
 * `decideSignIn` is a pure function of the facts read so far: when a step needs a fact that costs a
 * database read (the user, the IP lists, the wrong-code streaks, the secret the page showed), it answers
 * `read` and the service reads it and asks again, so no call reads what its outcome does not need.
 * The service that runs these steps is AccessDecisionService (apps/api/src/access/decision).
 *
 * A new way of proving the second factor (an approval on a phone, an SMS code, a recovery code) is
 * a new `SignInFactor`: how `chooseFactor` picks it, whether it can be guessed, and one check behind
 * the service's FactorCheck interface. An approval's check answers `pending`: the request is recorded
 * as waiting and its transaction commits, the person decides outside any transaction, and their
 * decision comes back as the check's result in a new run under the same row locks.
 */

/** How one way of signing in differs from the others; everything else is decided alike. */
export interface SignInRules {
  /**
   * The call is its own request, recorded once with its outcome (`ra`, `md`): it cannot ask twice, so
   * a refusal or a wrong code decides it at once. Otherwise the request waits for further answers (the
   * page's form, `ra/challenge`) and a wrong code is counted on it until its attempts are spent.
   */
  oneCall: boolean;
  /** An identity the account does not know is registered at its first visit (the page); elsewhere it is `UserNotRegistered`. */
  registersNewcomers: boolean;
  /** A user without any second factor enrolls an authenticator app here (the page); elsewhere the user is told to set one up. */
  enrollsNewcomers: boolean;
  /**
   * A code lockout denies the request (the `ra` family: a VPN cannot show "wait a minute" and take
   * the code again); otherwise the request keeps waiting (the page: the user goes on once it ends).
   */
  lockoutDenies: boolean;
  /**
   * An address on a Bypass IP list grants without a second factor. Not for a self-service portal's
   * password reset or account unlock: the portal acts on the directory on the strength of that token
   * alone, so a network that skips the second factor must not skip the proof of who resets.
   */
  bypassable: boolean;
  /**
   * A code can be asked for after this call (the page's form, `ra`'s challenge step), so a delivery
   * letter Twofold cannot serve falls back to a code prompt. A directory server's bind (`md`) cannot
   * ask twice: its user is told to append the code to the password instead.
   */
  promptsForCode: boolean;
  /** Which call this is, as the choice of an approval factor tells them apart (libs/domain approvals.ts planSecondFactor). */
  call: SecondFactorCall;
}

/** The rules of each way of signing in. */
export const SIGN_IN_RULES = {
  page: {
    oneCall: false,
    registersNewcomers: true,
    enrollsNewcomers: true,
    lockoutDenies: false,
    bypassable: true,
    promptsForCode: true,
    call: 'page',
  },
  ra: {
    oneCall: true,
    registersNewcomers: false,
    enrollsNewcomers: false,
    lockoutDenies: true,
    bypassable: true,
    promptsForCode: true,
    call: 'ra',
  },
  md: {
    oneCall: true,
    registersNewcomers: false,
    enrollsNewcomers: false,
    lockoutDenies: true,
    bypassable: true,
    promptsForCode: false,
    call: 'md',
  },
  /** the LDAP adapter: never a code, always an approval */
  la: {
    oneCall: true,
    registersNewcomers: false,
    enrollsNewcomers: false,
    lockoutDenies: true,
    bypassable: true,
    promptsForCode: false,
    call: 'la',
  },
  raChallenge: {
    oneCall: false,
    registersNewcomers: false,
    enrollsNewcomers: false,
    lockoutDenies: true,
    bypassable: true,
    promptsForCode: true,
    call: 'challenge',
  },
  /**
   * the access page of a self-service portal's password reset or account unlock: whoever knows a
   * login could otherwise enroll a factor for a user who has none yet and reset that user's password
   */
  recovery: {
    oneCall: false,
    registersNewcomers: false,
    enrollsNewcomers: false,
    lockoutDenies: false,
    bypassable: false,
    promptsForCode: true,
    call: 'page',
  },
} as const satisfies Record<string, SignInRules>;

/**
 * What the user answered: the page merely shown (`visit`), nothing yet, a delivery letter, or a code;
 * or, when a call resumes after waiting for a person, their answer to the approval asked on this
 * request (`approvalAnswered`: the answer itself is the check's result).
 */
export type SignInAnswer = { kind: 'visit' } | { kind: 'approvalAnswered' } | PassCodeIntent;

/** The request an attempt is made on. */
export type SignInRequest =
  /** made by this call and recorded with its outcome (`ra`, `md`) */
  | { kind: 'new' }
  | { kind: 'stored'; status: AccessRequestStatusName; createdAt: Date }
  /** no longer exists */
  | { kind: 'gone' }
  /** none the caller may continue: no request of that id, or another resource's, identity's or channel's; it is left as it is */
  | { kind: 'foreign' };

/**
 * The ways of proving the second factor, and whether each can be guessed (a guess is counted in the
 * user's wrong-code streaks, and a lockout stops the check): `code`, a code of one of the user's
 * TOTP/HOTP authenticators; `shownSecret`, the first code of the authenticator app the page is
 * enrolling, which has no owner to protect yet; `approval`, a person confirming on their phone (a
 * Telegram chat, the mobile app), which nobody can guess.
 */
export const SIGN_IN_FACTORS = {
  code: { guessable: true },
  shownSecret: { guessable: false },
  approval: { guessable: false },
  /** a code sent to the user's phone by SMS or a call for this request: six digits, so a guess is counted like an OTP code's */
  phoneCode: { guessable: true },
  /** a recovery or helpdesk bypass code (standby-codes.ts): long and random, but a wrong one still counts as a guess */
  standbyCode: { guessable: true },
} as const;
export type SignInFactor = keyof typeof SIGN_IN_FACTORS;

/** The user's second factors as the decision counts them. */
export interface SignInFactorFacts {
  /** authenticators whose codes are checked: of an OTP kind, with a secret, not disabled */
  codes: number;
  /** any second factor: an authenticator of any kind, enabled or not, or a phone */
  hasSecondFactor: boolean;
  /** every factor the user has is an authenticator an administrator disabled */
  everyFactorDisabled: boolean;
  /** the user's approval factors that can be asked now (libs/domain approvals.ts usableApprovalFactors); absent: none */
  approvals?: readonly ApprovalFactor[];
  /** the ways a code can be sent to the user's phone (`sms`, `call`); absent or empty: the user has no phone */
  phoneMethods?: readonly PhoneCodeMethod[];
}

/** The delivery letters that send a code to the user's phone: `s` (SMS) and `c` (a call reading it). */
export type PhoneCodeMethod = Extract<DeliveryMethod, 'sms' | 'call'>;

export function isPhoneCodeMethod(method: DeliveryMethod): method is PhoneCodeMethod {
  return method === 'sms' || method === 'call';
}

/** What is known of an attempt. A fact left undefined has not been read yet. */
export interface SignInFacts {
  /** the time of the decision, taken once the row locks are held */
  now: Date;
  request: SignInRequest;
  /** for a foreign request: whether the account knows the identity the caller named */
  identityKnown?: boolean;
  /** the request's user, read under its row lock once the request is known to be open; null when the account has none */
  user?: { isLocked: boolean } | null;
  factors: SignInFactorFacts;
  answer: SignInAnswer;
  /** the IP lists' verdict on the user's address */
  network?: 'deny' | 'bypass' | 'none';
  /** until when the user's codes from this address or through this resource are locked out; null when they are not */
  codesLockedUntil?: Date | null;
  /** the page showed a secret to enroll on this request */
  secretShown?: boolean;
  /** a code was sent to the user's phone for this stored request (open, spent or expired: a code entered is checked against it first) */
  phoneCodeSent?: boolean;
  /**
   * the user's recovery and bypass codes: `live` the ones that can still be used, `stored` all of them
   * (a spent one sent again is a replay, not a wrong token code); read for a code in their format, or
   * for a user without token codes
   */
  standbyCodes?: { live: number; stored: number };
}

/** Why the request is Denied. */
export type SignInRefusal =
  | { kind: 'unknownUser' }
  | { kind: 'locked' }
  | { kind: 'networkDenied' }
  /** no second factor at all, where none can be enrolled */
  | { kind: 'noSecondFactor' }
  /** second factors, none of which can answer here (a phone, Telegram) */
  | { kind: 'unusableSecondFactor' }
  | { kind: 'secondFactorDisabled' }
  /** a delivery letter a call that cannot ask twice cannot serve */
  | { kind: 'deliveryUnavailable'; method: DeliveryMethod }
  | { kind: 'lockedOut'; until: Date }
  | { kind: 'wrongCode' }
  /** a code already spent: not a guess, but a call that cannot ask twice is over */
  | { kind: 'codeAlreadyUsed' }
  /** the wrong code that spent the request's last attempt */
  | { kind: 'outOfCodes' }
  /** `la` for a user without an approval factor: no confirmation method is set up */
  | { kind: 'noApprovalFactor' }
  /** the person answered "it wasn't me", or picked a number that was not on the screen */
  | { kind: 'approvalRejected' }
  /** no answer within the wait */
  | { kind: 'approvalNotConfirmed' }
  /** the question could not be delivered (the gateway refused, timed out, or is not configured) */
  | { kind: 'approvalUndeliverable' }
  /** the wait ended without an answer: the service is stopping (try again), or the caller hung up */
  | { kind: 'approvalCancelled' }
  /** push fatigue: too many approvals pending, or a cooldown after "it wasn't me" answers */
  | { kind: 'tooManyApprovals' }
  /** the code could not be sent to the phone (the gateway refused, timed out or answered nonsense) */
  | { kind: 'phoneCodeUndeliverable'; method: PhoneCodeMethod }
  /** an abuse limit on sending codes to phones: the user's cooldown or hourly cap, the account's daily budget, the destination's country */
  | { kind: 'phoneCodeLimited'; method: PhoneCodeMethod; limit: PhoneCodeLimit };

/** The abuse limits on codes sent to phones (SMS pumping, toll fraud). */
export const PHONE_CODE_LIMITS = ['cooldown', 'hourlyCap', 'dailyBudget', 'destination', 'breaker'] as const;
export type PhoneCodeLimit = (typeof PHONE_CODE_LIMITS)[number];

/** What a waiting request asks for next. */
export type SignInPrompt =
  | { kind: 'enterCode' }
  /** a delivery letter that cannot be served: the code is asked for instead */
  | { kind: 'methodUnavailable'; method: DeliveryMethod }
  | { kind: 'lockedOut'; until: Date }
  | { kind: 'codeAlreadyUsed' }
  | { kind: 'wrongCode'; attemptsLeft: number }
  /** a code was sent to the user's phone (by SMS, or by a call reading it): it is asked for */
  | { kind: 'codeSent'; method: PhoneCodeMethod }
  /**
   * the page asked for a code by SMS or call and none was sent (the gateway did not take it, or an
   * abuse limit): the page says so and the request keeps waiting, nothing spent
   */
  | { kind: 'codeNotSent'; method: PhoneCodeMethod; reason: 'undeliverable' | PhoneCodeLimit };

/** The next step of an attempt. */
export type SignInStep =
  | { kind: 'read'; fact: 'identityKnown' | 'user' | 'network' | 'codesLockedUntil' | 'secretShown' | 'phoneCodeSent' | 'standbyCodes' }
  /** nothing is recorded, the request named is left as it is */
  | { kind: 'foreign'; reason: 'unknownUser' | 'requestNotValid' }
  /** the request or its user no longer exists: nothing to decide */
  | { kind: 'gone' }
  /** decided before: it stays as it is */
  | { kind: 'closed'; status: Exclude<AccessRequestStatusName, 'AwaitingAuthentication'> }
  /** still awaiting but past its time: it becomes Expired now */
  | { kind: 'expire' }
  | { kind: 'deny'; refusal: SignInRefusal }
  /** Granted without a second factor: the address is on a Bypass list */
  | { kind: 'bypass' }
  /** the page shows a secret to enroll; nothing is counted */
  | { kind: 'enroll' }
  /** the request waits for the user's next answer; nothing is counted */
  | { kind: 'wait'; prompt: SignInPrompt; factor: SignInFactor }
  /** `approval`: for the `approval` factor when it is asked now, the factor asked and whether the sign-in shows a number */
  | { kind: 'check'; factor: SignInFactor; approval?: ApprovalToAsk };

/** The approval factor asked, and whether the sign-in has a screen showing the number to pick. */
export interface ApprovalToAsk {
  factor: ApprovalFactor;
  withNumber: boolean;
}

const deny = (refusal: SignInRefusal): SignInStep => ({ kind: 'deny', refusal });
const read = (fact: Extract<SignInStep, { kind: 'read' }>['fact']): SignInStep => ({ kind: 'read', fact });

/** Steps 1 to 5: everything an attempt decides before its factor is checked, in that order. */
export function decideSignIn(rules: SignInRules, facts: SignInFacts): SignInStep {
  const { request, user, answer } = facts;
  if (request.kind === 'foreign') {
    if (facts.identityKnown === undefined) return read('identityKnown');
    // a clients' contract: an identity the account does not know is UserNotRegistered on every call
    return { kind: 'foreign', reason: facts.identityKnown ? 'requestNotValid' : 'unknownUser' };
  }
  if (request.kind === 'gone') return { kind: 'gone' };
  if (request.kind === 'stored') {
    const status = effectiveAccessStatus(request, facts.now);
    if (status !== 'AwaitingAuthentication')
      return request.status === 'AwaitingAuthentication' ? { kind: 'expire' } : { kind: 'closed', status };
  }

  if (user === undefined) return read('user');
  // a newcomer of the page was registered before its request was locked: one missing now is gone
  if (!user) return rules.registersNewcomers ? { kind: 'gone' } : deny({ kind: 'unknownUser' });
  if (user.isLocked) return deny({ kind: 'locked' });

  if (facts.network === undefined) return read('network');
  if (facts.network === 'deny') return deny({ kind: 'networkDenied' });
  // no factor is looked at, a code sent along neither checked nor counted
  if (facts.network === 'bypass' && rules.bypassable) return { kind: 'bypass' };

  // the person answered the approval asked on this request: their answer is the check's result
  if (answer.kind === 'approvalAnswered') return { kind: 'check', factor: 'approval' };
  // a recovery or bypass code is checked as one, whatever other factors the user has (the phone is lost)
  const standby = answer.kind === 'code' && looksLikeStandbyCode(answer.code);
  if (standby && facts.standbyCodes === undefined) return read('standbyCodes');
  const standbyAnswers = standby && (facts.standbyCodes?.stored ?? 0) > 0;
  const phone = standbyAnswers ? ({ kind: 'none', sent: false } as const) : choosePhoneCode(rules, facts);
  if (phone.kind !== 'none') return phone.kind === 'send' ? { kind: 'check', factor: 'phoneCode' } : phone;
  const approval = standbyAnswers ? null : chooseApproval(rules, facts);
  if (approval) return approval;

  const chosen = standbyAnswers
    ? ({ kind: 'factor', factor: 'standbyCode' } as const)
    : phone.sent
      ? ({ kind: 'factor', factor: 'phoneCode' } as const)
      : chooseFactor(rules, facts);
  if (chosen.kind !== 'factor') return chosen;
  const { factor } = chosen;
  // a call that cannot ask twice: its user appends the code to the password
  if (answer.kind === 'delivery' && !rules.promptsForCode) return deny({ kind: 'deliveryUnavailable', method: answer.method });
  // the page shown: nothing is attempted, so no lockout is consulted yet
  if (answer.kind === 'visit') return { kind: 'wait', prompt: { kind: 'enterCode' }, factor };

  if (SIGN_IN_FACTORS[factor].guessable) {
    if (facts.codesLockedUntil === undefined) return read('codesLockedUntil');
    // no code is looked at in a locked scope, the right one neither: checking it would answer the guess
    if (facts.codesLockedUntil) {
      const lockedOut = { kind: 'lockedOut', until: facts.codesLockedUntil } as const;
      return rules.lockoutDenies ? deny(lockedOut) : { kind: 'wait', prompt: lockedOut, factor };
    }
  }
  if (answer.kind === 'none') return { kind: 'wait', prompt: { kind: 'enterCode' }, factor };
  // a method is a preference: a request that can ask again asks for the code instead
  if (answer.kind === 'delivery') return { kind: 'wait', prompt: { kind: 'methodUnavailable', method: answer.method }, factor };
  return { kind: 'check', factor };
}

/**
 * Step 4 for a user with a phone, before the approval factors (an `s` or `c` asks for the phone, not
 * for Telegram): `send` a code to the phone, or say that a code answered on a stored request is the
 * one sent there (`sent`). A code is sent for `s`/`c` on a call that can then ask for it (`ra`,
 * `ra/challenge`, the page); `md` and `la` cannot ask twice and fall back as for any other letter
 * they cannot serve. A user whose only factor is a phone gets a code by SMS for a call without a code
 * (`ra` with no `passCode`), as a user with only an approval factor gets an approval.
 */
function choosePhoneCode(
  rules: SignInRules,
  facts: SignInFacts,
): { kind: 'send' } | { kind: 'none'; sent: boolean } | Extract<SignInStep, { kind: 'read' | 'wait' }> {
  const methods = facts.factors.phoneMethods ?? [];
  const { answer, factors } = facts;
  const none = { kind: 'none', sent: false } as const;
  if (methods.length === 0 || !rules.promptsForCode || rules.call === 'la') return none;
  if (answer.kind === 'delivery') return isPhoneCodeMethod(answer.method) && methods.includes(answer.method) ? { kind: 'send' } : none;
  const onlyPhone = factors.codes === 0 && (factors.approvals ?? []).length === 0 && !factors.everyFactorDisabled;
  if (answer.kind === 'none' && rules.call !== 'page' && onlyPhone && methods.includes('sms')) return { kind: 'send' };
  // the page sends nothing by itself: a user whose only factor is a phone gets the code prompt with its "send a code" buttons
  if (answer.kind === 'visit' && rules.call === 'page' && onlyPhone)
    return { kind: 'wait', prompt: { kind: 'enterCode' }, factor: 'phoneCode' };
  if (answer.kind !== 'code' || facts.request.kind !== 'stored') return none;
  if (facts.phoneCodeSent === undefined) return read('phoneCodeSent') as Extract<SignInStep, { kind: 'read' }>;
  // on the page, a user without token codes who types a code before pressing "send" typed a wrong
  // phone code (counted on the request), not a reason to refuse a factor the page serves
  const pageCodeOfPhone = rules.call === 'page' && factors.codes === 0 && !factors.everyFactorDisabled;
  return { kind: 'none', sent: facts.phoneCodeSent || pageCodeOfPhone };
}

/**
 * Step 4 for a user with an approval factor, and for `la` (always an approval): whether a person is
 * asked to approve (planSecondFactor: a code sent is checked, a code factor's user without a code
 * gets the code prompt, a delivery letter is a preference), or why the call is refused. Null: the
 * code factor answers as for any other user. The page asks when it is shown (with the number to pick).
 */
function chooseApproval(rules: SignInRules, facts: SignInFacts): SignInStep | null {
  const approvals = facts.factors.approvals ?? [];
  const { answer } = facts;
  if (answer.kind === 'approvalAnswered') return null;
  // the page asks when it is shown; a code posted on it ("enter a code instead") is checked as a code
  if (rules.call === 'page' ? answer.kind !== 'visit' : answer.kind === 'visit') return null;
  if (approvals.length === 0 && rules.call !== 'la') return null;
  const intent = answer.kind === 'visit' ? ({ kind: 'none' } as const) : answer;
  const plan = planSecondFactor({ call: rules.call, intent, hasCodeFactor: facts.factors.codes > 0, approvalFactors: approvals });
  switch (plan.step) {
    case 'approval':
      return { kind: 'check', factor: 'approval', approval: { factor: plan.factor, withNumber: plan.withNumber } };
    case 'deny':
      if (plan.reason === 'noApprovalFactor') return deny({ kind: 'noApprovalFactor' });
      // a code sent by a user whose factors take none
      if (plan.reason === 'noCodeFactor') return deny({ kind: 'unusableSecondFactor' });
      return null;
    default:
      return null;
  }
}

/**
 * Step 4: the factor that answers the attempt, or why none does. The refusals are given alike on
 * every way of signing in; only the page enrolls a user who has no second factor at all.
 */
function chooseFactor(rules: SignInRules, facts: SignInFacts): { kind: 'factor'; factor: SignInFactor } | SignInStep {
  const { factors } = facts;
  if (factors.codes > 0) return { kind: 'factor', factor: 'code' };
  // no token left (the phone is lost, its factors deleted or disabled): the recovery or bypass codes answer
  if ((facts.standbyCodes?.live ?? 0) > 0) return { kind: 'factor', factor: 'standbyCode' };
  // the administrator disabled them: enrolling a new app would undo that for whoever holds the request
  if (factors.everyFactorDisabled) return deny({ kind: 'secondFactorDisabled' });
  // a factor that cannot answer here (a phone, Telegram): enrolling an app over it would let whoever
  // holds the page's URL replace it, so the administrator sends an enrollment link instead
  if (factors.hasSecondFactor) return deny({ kind: 'unusableSecondFactor' });
  if (!rules.enrollsNewcomers) return deny({ kind: 'noSecondFactor' });
  if (facts.answer.kind === 'visit') return { kind: 'enroll' };
  if (facts.secretShown === undefined) return read('secretShown');
  // nothing to check the code against until a secret was shown
  return facts.secretShown ? { kind: 'factor', factor: 'shownSecret' } : { kind: 'enroll' };
}

/**
 * How checking the factor came out: accepted; wrong (a guess); replayed (a code already spent, by a
 * retransmission or a parallel attempt: not a guess); or pending (a person is asked to approve, and
 * their answer comes back as `granted` or `refused` in a later run); refused (an approval that was
 * rejected, not confirmed in time, not delivered, or not asked at all because of push fatigue).
 */
export type SignInCheckResult = 'granted' | 'wrong' | 'replayed' | 'pending' | 'refused' | 'sent';

/** What a check's result does, step 6. */
export interface SignInCheckDecision {
  /**
   * The user's wrong-code streaks of this attempt's address and resource: a wrong guess counts in
   * them, an accepted code clears them; a factor that cannot be guessed leaves them.
   */
  streaks: 'count' | 'forget' | 'keep';
  next:
    | { kind: 'grant' }
    | { kind: 'deny'; refusal: SignInRefusal; failedAttempts: number }
    | { kind: 'wait'; prompt: SignInPrompt }
    /** counted on the request, then decideCountedCode */
    | { kind: 'countOnRequest' }
    /** the request is recorded as waiting and the transaction commits: the person decides outside it */
    | { kind: 'pending' }
    /** a code was sent to the user's phone: the request waits for it */
    | { kind: 'codeSent' };
}

export function decideCheck(
  rules: SignInRules,
  factor: SignInFactor,
  result: SignInCheckResult,
  refusal: SignInRefusal = { kind: 'wrongCode' },
): SignInCheckDecision {
  const guessable = SIGN_IN_FACTORS[factor].guessable;
  switch (result) {
    // a person said no, or could not be asked: the request is over on every way of signing in
    case 'refused': {
      // except a code the page could not send: its user sees why at once and may try again or use another factor
      if ((refusal.kind === 'phoneCodeUndeliverable' || refusal.kind === 'phoneCodeLimited') && rules.call === 'page') {
        const reason = refusal.kind === 'phoneCodeLimited' ? refusal.limit : 'undeliverable';
        return { streaks: 'keep', next: { kind: 'wait', prompt: { kind: 'codeNotSent', method: refusal.method, reason } } };
      }
      return { streaks: 'keep', next: { kind: 'deny', refusal, failedAttempts: 0 } };
    }
    case 'granted':
      return { streaks: guessable ? 'forget' : 'keep', next: { kind: 'grant' } };
    case 'pending':
      return { streaks: 'keep', next: { kind: 'pending' } };
    // sending is no guess: nothing is counted until the code comes back
    case 'sent':
      return { streaks: 'keep', next: { kind: 'codeSent' } };
    case 'replayed':
      return {
        streaks: 'keep',
        next: rules.oneCall
          ? { kind: 'deny', refusal: { kind: 'codeAlreadyUsed' }, failedAttempts: 0 }
          : { kind: 'wait', prompt: { kind: 'codeAlreadyUsed' } },
      };
    case 'wrong':
      return {
        streaks: guessable ? 'count' : 'keep',
        // a call that is its own request spends its one attempt
        next: rules.oneCall ? { kind: 'deny', refusal: { kind: 'wrongCode' }, failedAttempts: 1 } : { kind: 'countOnRequest' },
      };
  }
}

/**
 * A wrong code counted on a waiting request: `counted` is the request after the count, null when it
 * was no longer awaiting (decided by another attempt first, which the request's row lock rules out).
 * The count that reaches the request's limit has denied it already: nothing is left to write.
 */
export function decideCountedCode(
  counted: { failedAttempts: number; status: AccessRequestStatusName } | null,
): { kind: 'outOfCodes' } | { kind: 'wait'; prompt: SignInPrompt } {
  if (!counted || counted.status !== 'AwaitingAuthentication') return { kind: 'outOfCodes' };
  return { kind: 'wait', prompt: { kind: 'wrongCode', attemptsLeft: ACCESS_REQUEST_MAX_FAILED_CODES - counted.failedAttempts } };
}
