import {
  AccessRequestStatusName,
  AccountId,
  ApprovalToAsk,
  PhoneCodeMethod,
  SignInAnswer,
  SignInFactor,
  SignInPrompt,
  SignInRefusal,
  SignInRequest,
  SignInRules,
  StandbyCodeKind,
} from '@twofold/domain';
import { AccessRequestChannel, AuthenticatorKind, OtpSpend, UserForCodeCheck, WrongCodeScopeKey } from '@twofold/persistence';
import type { OpenedApproval } from '../../approvals/approvals.service';

/**
 * What a way of signing in hands AccessDecisionService, and what it gets back. Each entry point (the
 * page, `ra`, `md`, `ra/challenge`) supplies only what differs: how its request and user are read
 * under their row locks, and how its outcome is written (a request made by the call itself, or the
 * stored request it continues). Everything else is decided alike (libs/domain access-decision.ts).
 */

/** The factor that accepted an attempt, as the answers and the history name it. */
export interface AcceptedFactor {
  kind: AuthenticatorKind | StandbyCodeKind;
  /** the authenticator's id and display name; null for one the check itself created (the page's enrollment) */
  id: string | null;
  name: string | null;
  /** a recovery code: the user's unspent ones, given when few are left (the answer warns) */
  codesLeft?: number;
}

/**
 * What a factor check came to (decideCheck says what each does). `pending`: a person is asked to
 * approve (an approval factor): the request is recorded as waiting and the transaction commits; the
 * message is sent and the person's answer awaited by the entry point outside any transaction; the
 * answer then comes back as this check's result in a new run (`run(attempt, answered)`).
 */
export type FactorCheckResult =
  /** `spend`: the code's time step or counter, spent by the grant's own statement (RequestLedger.grant) */
  | { result: 'granted'; factor: AcceptedFactor; spend?: OtpSpend }
  | { result: 'wrong' }
  | { result: 'replayed' }
  /** `open`: records the approval of the request once the request is written (its id), in the same transaction */
  | { result: 'pending'; factor: AcceptedFactor; open(requestId: string): Promise<OpenedApproval> }
  /** a person said no or could not be asked (an approval): the request is denied for `refusal` */
  | { result: 'refused'; refusal: SignInRefusal }
  /** a code was sent to the user's phone: `record` binds it to the request once the request is written (its id), in the same transaction */
  | { result: 'sent'; method: PhoneCodeMethod; record(requestId: string): Promise<void> };

export interface FactorCheckContext {
  accountId: AccountId;
  found: UserForCodeCheck;
  answer: SignInAnswer;
  /** the request continued; null for a call whose request is written with its outcome */
  requestId: string | null;
  now: Date;
  /** where the sign-in comes from: the address shown to the person asked, the resource, the channel */
  origin: { address: string | null; resourceId: string; channel: AccessRequestChannel };
  /** the approval factor the decision chose to ask, for the `approval` factor */
  approval?: ApprovalToAsk;
}

/**
 * One way of proving the second factor (the seam a new method plugs into): the user's TOTP/HOTP codes
 * (CodeFactorCheck), the page's enrollment, later an approval, an SMS code or a recovery code. A check
 * runs inside the attempt's transaction, under the request's and the user's row locks, and spends what
 * it accepts (a code is accepted once). It must not wait for anything outside the database: a check
 * that needs a person answers `pending`.
 */
export interface FactorCheck {
  check(context: FactorCheckContext): Promise<FactorCheckResult>;
}

/** The page's enrollment of a user without a second factor: whether a secret was shown on this request, and the check of its first code. */
export interface EnrollmentCheck extends FactorCheck {
  secretShown(): Promise<boolean>;
}

/**
 * Where an attempt's outcome is written: a request made by the call itself (`ra`, `md`: one INSERT
 * with the outcome) or the stored request the attempt continues (the page, `ra/challenge`: conditional
 * UPDATEs). Each method returns the request's id.
 */
export interface RequestLedger {
  /** the request's id; null while a request made by the call is not written yet */
  readonly requestId: string | null;
  /** the request's identity, as the journal names the user */
  readonly identity: string;
  expire(): Promise<void>;
  /** Denied; `user` is the request's user when the account has one */
  deny(now: Date, failedAttempts: number, user: UserForCodeCheck | null): Promise<string>;
  /** the request waits for the user's next answer */
  wait(now: Date): Promise<string>;
  /** a wrong code counted on the waiting request: its state after the count, null when it was no longer awaiting */
  countWrongCode(): Promise<{ failedAttempts: number; status: AccessRequestStatusName } | null>;
  /**
   * Granted to the user by that factor, or without one (null: a Bypass IP list), the user's lastLogin
   * with it and the code's `spend` in the same statement
   */
  grant(factor: AcceptedFactor | null, now: Date, user: UserForCodeCheck, spend?: OtpSpend): Promise<LedgerGrant>;
}

/**
 * What a grant wrote: the request (its id); nothing, because another attempt decided the request first
 * (`superseded`), or because the code's time step or counter was spent first (`replayed`).
 */
export type LedgerGrant = { kind: 'granted'; requestId: string } | { kind: 'superseded' } | { kind: 'replayed' };

/** The attempt's request and user, read under their row locks. */
export type OpenedAttempt =
  /** no request the caller may continue: nothing is locked or written */
  | { kind: 'foreign'; identityKnown(): Promise<boolean> }
  | {
      kind: 'opened';
      request: Exclude<SignInRequest, { kind: 'foreign' }>;
      accountId: AccountId;
      /**
       * The request's user under its row lock, with its authenticators, first phone and the account's
       * IP-list revision (one round trip); null when there is none. Read once the request is known to be open.
       * `streakKeys`: the scopes whose wrong-code streaks are read after the lock in the same round trip
       * (an attempt may return a user it locked earlier without them: they are then read on their own).
       */
      lockUser(streakKeys: readonly WrongCodeScopeKey[]): Promise<UserForCodeCheck | null>;
      /** the user's address (the page's visitor, the `ip` a `ra` client sent, the address a challenge's `ra` step recorded) */
      address: string | null;
      resourceId: string;
      channel: AccessRequestChannel;
      ledger: RequestLedger;
      /** the page's enrollment of a newcomer */
      enrollment?: EnrollmentCheck;
    };

/** One attempt to sign in, as an entry point describes it. */
export interface SignInAttempt {
  rules: SignInRules;
  answer: SignInAnswer;
  /**
   * Reads the request under its row lock; its user is locked next (`lockUser`). Every attempt takes
   * the locks in this order, so attempts of one request or one user queue up instead of deadlocking,
   * and the wrong-code counts read under the user's lock are exact.
   */
  open(): Promise<OpenedAttempt>;
  /**
   * The attempt opened without row locks, for an answer that checks and counts nothing (a call without
   * a code). AccessDecisionService decides it outside a transaction when the outcome is a refusal or a
   * prompt (one statement of the ledger) or a Bypass grant (a transaction of its own), and opens the
   * attempt with `open` when it comes to a factor's check.
   */
  openUnlocked?(): Promise<OpenedAttempt>;
  /** What the entry point hands out with a grant (the page: the AccessToken), in the grant's transaction. */
  granted?(grant: { found: UserForCodeCheck; factor: AcceptedFactor | null; now: Date }): Promise<void>;
}

/** What became of an attempt: the step it ended on, the request it was recorded on, and the user as read. */
export type SignInOutcome = {
  /** null when nothing was recorded */
  requestId: string | null;
  found: UserForCodeCheck | null;
  /** the time the attempt was decided at */
  now: Date;
} & (
  | { kind: 'foreign'; reason: 'unknownUser' | 'requestNotValid' }
  | { kind: 'gone' }
  /** decided before, or expired now */
  | { kind: 'closed'; status: Exclude<AccessRequestStatusName, 'AwaitingAuthentication'> }
  /** another attempt decided the request first */
  | { kind: 'superseded' }
  | { kind: 'denied'; refusal: SignInRefusal }
  | { kind: 'waiting'; prompt: SignInPrompt; factor: SignInFactor }
  | { kind: 'enroll' }
  /** factor null: Granted without a second factor (a Bypass IP list) */
  | { kind: 'granted'; factor: AcceptedFactor | null }
  /** a person is asked to approve: the request waits, committed, with its approval recorded; see FactorCheckResult */
  | { kind: 'pending'; factor: AcceptedFactor; approval: OpenedApproval }
);
