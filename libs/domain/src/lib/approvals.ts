import { DeliveryMethod, PassCodeIntent } from './ra-requests';

/**
 * Out-of-band approval: instead of typing a code, the user confirms a sign-in on their phone (a
 * Telegram chat bound to them, or the service's authenticator app). One state machine serves every
 * channel; transports only deliver the question and bring the answer back.
 *
 * A pending approval belongs to one access request. It is decided once: approved, rejected ("it
 * wasn't me", or the wrong number picked), expired (no answer within its bound), cancelled (the
 * waiting client hung up, or the service is stopping) or undeliverable (the message could not be
 * sent). Nothing ever leaves a decided state.
 */

/** The approval factors, in the order they are asked when the user chose none. */
export const APPROVAL_FACTOR_KINDS = ['MobileApp', 'Telegram'] as const;
export type ApprovalFactorKind = (typeof APPROVAL_FACTOR_KINDS)[number];

export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected', 'Expired', 'Cancelled', 'Undeliverable'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ApprovalFinalStatus = Exclude<ApprovalStatus, 'Pending'>;

/** Why an approval was rejected: the user said it was not them, or picked a number that was not shown on the screen. */
export const APPROVAL_REJECT_REASONS = ['notMe', 'wrongNumber'] as const;
export type ApprovalRejectReason = (typeof APPROVAL_REJECT_REASONS)[number];

/**
 * Where the sign-in that asks comes from: the access page (a browser: the user sees a number to
 * match), or a call without a screen (`ra`, `md`, `la`), which gets approve/deny only.
 */
export const APPROVAL_CHANNELS = ['page', 'ra', 'md', 'la'] as const;
export type ApprovalChannel = (typeof APPROVAL_CHANNELS)[number];

/** Only a sign-in with a screen can show the number the user must pick on the device. */
export function channelShowsNumber(channel: ApprovalChannel): boolean {
  return channel === 'page';
}

/**
 * How long a call waits for the user (APPROVAL_WAIT_SECONDS): clients give up after 60 s (directory
 * server) or 65 s (RADIUS and LDAP adapters), some of them then letting the user in, so the answer
 * must come first. 58 s leaves 2 s for the decision's transaction and the network.
 */
export const DEFAULT_APPROVAL_WAIT_SECONDS = 55;
export const MAX_APPROVAL_WAIT_SECONDS = 58;
export const MIN_APPROVAL_WAIT_SECONDS = 5;

/** Push fatigue: a user has at most this many approvals pending at once; one more is refused. */
export const MAX_PENDING_APPROVALS_PER_USER = 3;
/** Push fatigue: this many "it wasn't me" within NOT_ME_WINDOW_MINUTES … */
export const NOT_ME_LIMIT = 2;
export const NOT_ME_WINDOW_MINUTES = 60;
/** … stop every approval request of that user for this long after the last of them. */
export const APPROVAL_COOLDOWN_MINUTES = 15;
/** How far back the "it wasn't me" answers that can still hold a cooldown reach. */
export const NOT_ME_LOOKBACK_MINUTES = NOT_ME_WINDOW_MINUTES + APPROVAL_COOLDOWN_MINUTES;

const MINUTE_MS = 60_000;

/** The two-digit numbers of number matching. */
export const APPROVAL_NUMBER_MIN = 10;
export const APPROVAL_NUMBER_MAX = 99;
/** Choices offered on the device: one right, the others decoys. */
export const APPROVAL_NUMBER_CHOICES = 3;

/** A uniform random integer in [0, maxExclusive): `crypto.randomInt` in the service, a fixed sequence in tests. */
export type RandomInt = (maxExclusive: number) => number;

export interface NumberChallenge {
  /** shown on the sign-in screen */
  number: number;
  /** shown on the device, in this order: the number and distinct decoys, the right one at a random place */
  choices: number[];
}

/** A new number to match: two digits, and APPROVAL_NUMBER_CHOICES distinct choices holding it. */
export function newNumberChallenge(randomInt: RandomInt): NumberChallenge {
  const span = APPROVAL_NUMBER_MAX - APPROVAL_NUMBER_MIN + 1;
  const number = APPROVAL_NUMBER_MIN + randomInt(span);
  const choices = [number];
  while (choices.length < APPROVAL_NUMBER_CHOICES) {
    const decoy = APPROVAL_NUMBER_MIN + randomInt(span);
    if (!choices.includes(decoy)) choices.push(decoy);
  }
  // Fisher-Yates: the right number's place tells nothing
  for (let i = choices.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [choices[i], choices[j]] = [choices[j], choices[i]];
  }
  return { number, choices };
}

/** What a person can answer on the device. */
export type ApprovalChoice = { kind: 'approve' } | { kind: 'notMe' } | { kind: 'number'; number: number };

/** The part of an approval its rules read. */
export interface ApprovalState {
  status: ApprovalStatus;
  expiresAt: Date;
  /** the number to match; null for a sign-in without a screen */
  number: number | null;
  /** the choices offered with a number; null without one */
  choices: readonly number[] | null;
}

/** The answers offered on the device: the numbers and "it wasn't me" with a number, else approve and "it wasn't me". */
export function approvalOptions(approval: Pick<ApprovalState, 'number' | 'choices'>): ApprovalChoice[] {
  if (approval.number === null || approval.choices === null) return [{ kind: 'approve' }, { kind: 'notMe' }];
  return [...approval.choices.map((number): ApprovalChoice => ({ kind: 'number', number })), { kind: 'notMe' }];
}

function offered(approval: Pick<ApprovalState, 'number' | 'choices'>, choice: ApprovalChoice): boolean {
  return approvalOptions(approval).some(
    (option) => option.kind === choice.kind && (option.kind !== 'number' || option.number === (choice as { number: number }).number),
  );
}

/** What an answer does: decides the approval, or changes nothing (the device is told it expired). */
export type ApprovalVerdict =
  | { outcome: 'decide'; status: 'Approved' }
  | { outcome: 'decide'; status: 'Rejected'; reason: ApprovalRejectReason }
  | { outcome: 'ignore'; why: 'decided' | 'expired' | 'notOffered' };

/**
 * The rule of an answer: only a pending approval before its expiry is decided, and only by an answer
 * it offered (an "approve" on an approval with a number, or a number it did not show, is no answer).
 * The right number approves; another offered number rejects (someone is guessing, or the user is
 * confirming a sign-in on a screen they cannot see); "it wasn't me" rejects.
 */
export function judgeApprovalChoice(approval: ApprovalState, choice: ApprovalChoice, now: Date): ApprovalVerdict {
  if (approval.status !== 'Pending') return { outcome: 'ignore', why: 'decided' };
  if (now.getTime() >= approval.expiresAt.getTime()) return { outcome: 'ignore', why: 'expired' };
  if (!offered(approval, choice)) return { outcome: 'ignore', why: 'notOffered' };
  switch (choice.kind) {
    case 'approve':
      return { outcome: 'decide', status: 'Approved' };
    case 'notMe':
      return { outcome: 'decide', status: 'Rejected', reason: 'notMe' };
    case 'number':
      return choice.number === approval.number
        ? { outcome: 'decide', status: 'Approved' }
        : { outcome: 'decide', status: 'Rejected', reason: 'wrongNumber' };
  }
}

/**
 * Ends without an answer (expired, cancelled, undeliverable): only from Pending. Whoever loses the
 * race with an answer reads the answer instead.
 */
export function canSettleWithoutAnswer(status: ApprovalStatus): boolean {
  return status === 'Pending';
}

/** What the waiting call learns. */
export type ApprovalOutcome = 'approved' | 'rejected' | 'expired' | 'cancelled' | 'undeliverable';

export function approvalOutcomeOf(status: ApprovalFinalStatus): ApprovalOutcome {
  const outcomes: Record<ApprovalFinalStatus, ApprovalOutcome> = {
    Approved: 'approved',
    Rejected: 'rejected',
    Expired: 'expired',
    Cancelled: 'cancelled',
    Undeliverable: 'undeliverable',
  };
  return outcomes[status];
}

/** Push fatigue's verdict on asking a user once more. */
export type FatigueVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'tooManyPending' }
  | { allowed: false; reason: 'cooldown'; until: Date };

/**
 * Push fatigue: a flood of approval requests wears a user down until they approve one to make it
 * stop. So at most MAX_PENDING_APPROVALS_PER_USER wait at once, and when the user answers "it
 * wasn't me" NOT_ME_LIMIT times within NOT_ME_WINDOW_MINUTES, no approval is asked of them for
 * APPROVAL_COOLDOWN_MINUTES after the last of those answers. `notMeAt`: the user's "it wasn't me"
 * answers at least since `now - NOT_ME_LOOKBACK_MINUTES` (older ones change nothing).
 */
export function approvalFatigue(input: { pending: number; notMeAt: readonly Date[]; now: Date }): FatigueVerdict {
  const times = input.notMeAt.map((at) => at.getTime()).sort((a, b) => a - b);
  let until = -Infinity;
  for (let i = NOT_ME_LIMIT - 1; i < times.length; i++) {
    if (times[i] - times[i - (NOT_ME_LIMIT - 1)] <= NOT_ME_WINDOW_MINUTES * MINUTE_MS) {
      until = Math.max(until, times[i] + APPROVAL_COOLDOWN_MINUTES * MINUTE_MS);
    }
  }
  if (input.now.getTime() < until) return { allowed: false, reason: 'cooldown', until: new Date(until) };
  if (input.pending >= MAX_PENDING_APPROVALS_PER_USER) return { allowed: false, reason: 'tooManyPending' };
  return { allowed: true };
}

/** An approval factor the user has and the service can reach now. */
export interface ApprovalFactor {
  /** the authenticator's id */
  id: string;
  kind: ApprovalFactorKind;
  createdAt: Date;
}

function isApprovalFactorKind(kind: string): kind is ApprovalFactorKind {
  return (APPROVAL_FACTOR_KINDS as readonly string[]).includes(kind);
}

/**
 * The user's approval factors that can be asked: enabled ones, of a kind whose transport is
 * configured (a Telegram chat is no use without a bot token).
 */
export function usableApprovalFactors(
  authenticators: readonly { id: string; kind: string; disabled: boolean; createdAt: Date }[],
  reachable: ReadonlySet<ApprovalFactorKind>,
): ApprovalFactor[] {
  return authenticators
    .filter((a) => !a.disabled && isApprovalFactorKind(a.kind) && reachable.has(a.kind))
    .map((a) => ({ id: a.id, kind: a.kind as ApprovalFactorKind, createdAt: a.createdAt }));
}

/**
 * The factor to ask: the kind the call asked for (`t`, `m`) when the user has it, else the kind the
 * user prefers, else MobileApp before Telegram; among several of one kind the oldest (the one the
 * user set up first and knows).
 */
export function chooseApprovalFactor(
  factors: readonly ApprovalFactor[],
  options: { asked?: ApprovalFactorKind | null; preferred?: ApprovalFactorKind | null } = {},
): ApprovalFactor | null {
  const order = [options.asked, options.preferred, ...APPROVAL_FACTOR_KINDS].filter((kind): kind is ApprovalFactorKind => !!kind);
  for (const kind of order) {
    const ofKind = factors
      .filter((factor) => factor.kind === kind)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    if (ofKind.length > 0) return ofKind[0];
  }
  return null;
}

/** The approval factor a delivery letter asks for: `t` Telegram, `m` the mobile app; SMS and calls are none. */
export function approvalKindOfDelivery(method: DeliveryMethod): ApprovalFactorKind | null {
  if (method === 'telegram') return 'Telegram';
  if (method === 'push') return 'MobileApp';
  return null;
}

/**
 * The call that asks for a second factor: the access page, `ra` (and `ra/challenge`'s second step,
 * `challenge`), `md` (a directory server's bind: one call, it cannot ask for a code afterwards) and
 * `la` (the LDAP adapter: never a code, always an approval).
 */
export type SecondFactorCall = 'page' | 'ra' | 'challenge' | 'md' | 'la';

export type SecondFactorDenial =
  /** the user has no usable second factor at all */
  | 'noUsableFactor'
  /** `la` for a user without an approval factor: "no confirmation method is set up" */
  | 'noApprovalFactor'
  /** a code was sent, and the user has only approval factors */
  | 'noCodeFactor'
  /** `md` asked for a delivery Twofold cannot make for a user with code factors only: the code goes after the password */
  | 'appendCodeToPassword';

/** What the call does next. */
export type SecondFactorPlan =
  | { step: 'checkCode'; code: string }
  /**
   * Ask for a code (`ra`: AwaitingAuthentication; `challenge`: the request keeps waiting). `unavailable`:
   * the delivery asked for, which Twofold cannot make for this user (the reply says so).
   */
  | { step: 'codePrompt'; unavailable: DeliveryMethod | null }
  | { step: 'approval'; factor: ApprovalFactor; withNumber: boolean }
  | { step: 'deny'; reason: SecondFactorDenial };

export interface SecondFactorPlanInput {
  call: SecondFactorCall;
  /** the passCode (`ra`, `md`) or challenge (`challenge`); `{kind: 'none'}` for the page and `la` */
  intent: PassCodeIntent;
  /** the user has a usable code factor (an enabled authenticator app or OTP token) */
  hasCodeFactor: boolean;
  /** the user's usable approval factors (usableApprovalFactors) */
  approvalFactors: readonly ApprovalFactor[];
  /** the kind the user chose to be asked first; null: the default order */
  preferred?: ApprovalFactorKind | null;
}

/**
 * Which second factor a call uses, from what it sent and what the user has.
 * - `la` is always an approval; a user without an approval factor is denied.
 * - The page asks for an approval (with the number) when the user has an approval factor, else for a code.
 * - `ra`/`md` with a code check it. Without one (null, empty) a user with a code factor gets the code
 *   prompt as always; a user whose only usable factors are approval factors is asked to approve.
 * - A delivery letter is a preference, not a demand: `t`/`m` ask that factor when the user has it,
 *   else any approval factor of theirs (SMS and calls are never delivered, so `s`/`c` go there
 *   directly), else the code prompt; denied only when the user has no usable factor at all.
 *   `md` cannot ask twice: where `ra` would fall back to the code prompt, `md` is denied and told to
 *   append the code to the password.
 */
export function planSecondFactor(input: SecondFactorPlanInput): SecondFactorPlan {
  const { call, intent, hasCodeFactor, approvalFactors } = input;
  const preferred = input.preferred ?? null;
  const anyApproval = (asked: ApprovalFactorKind | null = null) => chooseApprovalFactor(approvalFactors, { asked, preferred });
  const approval = (factor: ApprovalFactor): SecondFactorPlan => ({ step: 'approval', factor, withNumber: call === 'page' });
  const nothingUsable = !hasCodeFactor && approvalFactors.length === 0;

  if (call === 'la') {
    const factor = anyApproval();
    return factor ? approval(factor) : { step: 'deny', reason: 'noApprovalFactor' };
  }
  if (nothingUsable) return { step: 'deny', reason: 'noUsableFactor' };
  if (call === 'page') {
    const factor = anyApproval();
    return factor ? approval(factor) : { step: 'codePrompt', unavailable: null };
  }
  switch (intent.kind) {
    case 'code':
      return hasCodeFactor ? { step: 'checkCode', code: intent.code } : { step: 'deny', reason: 'noCodeFactor' };
    case 'none': {
      if (hasCodeFactor) return { step: 'codePrompt', unavailable: null };
      return approval(anyApproval() as ApprovalFactor);
    }
    case 'delivery': {
      const asked = approvalKindOfDelivery(intent.method);
      const factor = anyApproval(asked);
      if (factor) return approval(factor);
      if (call === 'md') return { step: 'deny', reason: 'appendCodeToPassword' };
      return { step: 'codePrompt', unavailable: intent.method };
    }
  }
}
