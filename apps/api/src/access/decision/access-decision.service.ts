import { Inject, Injectable } from '@nestjs/common';
import {
  Clock,
  decideCheck,
  decideCountedCode,
  decideSignIn,
  IpListVerdict,
  NO_IP_LIST_VERDICT,
  SignInFacts,
  SignInFactor,
  SignInRefusal,
} from '@twofold/domain';
import { Db, isRequestUserGone, StandbyCodesRepository, UserForCodeCheck } from '@twofold/persistence';
import { CLOCK } from '../../config/injection-tokens';
import { BypassJournal } from '../../ip-lists/bypass-journal';
import { IpListPolicy } from '../../ip-lists/ip-list-policy';
import { AppMetrics } from '../../metrics/app-metrics';
import { CodeAttemptStreaks, codeScopeKeys, CodeLockouts, CodeOrigin, lockoutInForce } from './code-lockouts';
import { ApprovalFactorCheck } from './approval-factor.check';
import { CodeFactorCheck, factorFactsOf } from './code-factor.check';
import { PhoneCodeCheck } from './phone-code.check';
import { StandbyCodeFactorCheck } from './standby-code.check';
import { FactorCheck, FactorCheckResult, OpenedAttempt, SignInAttempt, SignInOutcome } from './sign-in';

type Opened = Extract<OpenedAttempt, { kind: 'opened' }>;

/** Streaks of an attempt that checked no code: nothing to count or clear. */
const NO_STREAKS: CodeAttemptStreaks = { keys: [], rows: [] };

/**
 * The one access decision, run for every way of signing in: the page, `ra`, `md`
 * and `ra/challenge` hand it an attempt (sign-in.ts), it takes the steps libs/domain decides
 * (decideSignIn, decideCheck) in one transaction under the request's and the user's row locks, and
 * writes the outcome through the attempt's ledger. Each fact is read only when a step needs it, so a
 * refusal costs no more round trips than it did in the entry point's own copy of these steps. A call
 * without a code is first decided without the locks: its refusal or prompt is one statement.
 *
 * Approvals plug in here without touching the other factors. Their check answers `pending` inside
 * the transaction (it picks the factor and may refuse, it sends nothing); `run` records the request as
 * waiting and returns, so the transaction commits and the connection goes back to the pool. The entry
 * point then, outside any transaction (`Db.inTransaction()` false: a transaction joined from outside
 * would be held open), sends the message and waits for the person, bounded below every client's
 * timeout; it holds no connection and no lock meanwhile. Their answer is applied by `run` again, for
 * the stored request, with that answer as the check's result (`answered`): the request and user are
 * locked again, and the request's state, the user's lock and the IP lists are decided anew, as for a
 * code.
 */
@Injectable()
export class AccessDecisionService {
  constructor(
    private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ipLists: IpListPolicy,
    private readonly bypassJournal: BypassJournal,
    private readonly lockouts: CodeLockouts,
    private readonly codes: CodeFactorCheck,
    private readonly approvals: ApprovalFactorCheck,
    private readonly metrics: AppMetrics,
    private readonly phoneCodes: PhoneCodeCheck,
    private readonly standbyCodes: StandbyCodeFactorCheck,
    private readonly storedStandbyCodes: StandbyCodesRepository,
  ) {}

  /**
   * An attempt, decided in one transaction under the request's and the user's row locks; one that
   * can be opened without them (`openUnlocked`: a call without a code) is tried that way first.
   */
  async run(attempt: SignInAttempt, answered?: FactorCheckResult): Promise<SignInOutcome> {
    if (attempt.openUnlocked && answered === undefined) {
      const outcome = await this.runUnlocked(attempt, attempt.openUnlocked);
      if (outcome) return outcome;
    }
    return this.db.transaction(() => this.open(attempt, answered, () => attempt.open()));
  }

  /**
   * An attempt that checks and counts nothing, decided without row locks or a transaction (BEGIN and
   * COMMIT were two of the two-step flow's first call's four round trips): its refusal or prompt is one
   * statement, the request written with it; a Bypass grant is written with its journal event in a
   * transaction of its own. Null, nothing written, when the decision comes to a factor's check (it
   * records a code sent or an approval asked under the user's lock) or when the user was deleted
   * between the read and the write: `run` then decides it under the locks, from the start.
   */
  private async runUnlocked(attempt: SignInAttempt, openUnlocked: () => Promise<OpenedAttempt>): Promise<SignInOutcome | null> {
    try {
      return await this.open(attempt, undefined, openUnlocked, 'unlocked');
    } catch (error) {
      if (error instanceof NeedsRowLocks || isRequestUserGone(error)) return null;
      throw error;
    }
  }

  /**
   * The page shown, which attempts nothing: decided alike but outside a transaction, as the read it
   * is. Nothing is checked or counted; what it may write is one conditional change of the request (a
   * refusal), or a Bypass grant in a transaction of its own.
   */
  visit(attempt: SignInAttempt): Promise<SignInOutcome> {
    if (attempt.answer.kind !== 'visit') throw new Error('only a visit is decided outside a transaction');
    return this.open(attempt, undefined, () => attempt.open());
  }

  private async open(
    attempt: SignInAttempt,
    answered: FactorCheckResult | undefined,
    opener: () => Promise<OpenedAttempt>,
    locks: 'locked' | 'unlocked' = 'locked',
  ): Promise<SignInOutcome> {
    const opened = await opener();
    if (opened.kind === 'opened') return this.decide(attempt, opened, answered, locks);
    const now = this.clock.now();
    const request = { kind: 'foreign' } as const;
    const facts = { now, request, identityKnown: await opened.identityKnown(), factors: factorFactsOf(null), answer: attempt.answer };
    const step = decideSignIn(attempt.rules, facts);
    if (step.kind !== 'foreign') throw new Error(`a foreign request was decided as ${step.kind}`);
    return { kind: 'foreign', reason: step.reason, requestId: null, found: null, now };
  }

  private async decide(
    attempt: SignInAttempt,
    opened: Opened,
    answered: FactorCheckResult | undefined,
    locks: 'locked' | 'unlocked',
  ): Promise<SignInOutcome> {
    const { ledger } = opened;
    // after the request's lock: an attempt that waited for another is decided at the time it gets its turn
    const now = this.clock.now();
    const origin: CodeOrigin = { address: opened.address, resourceId: opened.resourceId, channel: opened.channel };
    const streakKeys = codeScopeKeys(origin);
    const facts: SignInFacts = { now, request: opened.request, factors: factorFactsOf(null), answer: attempt.answer };
    const codeAnswered = attempt.answer.kind === 'code';
    let found: UserForCodeCheck | null = null;
    let verdict: IpListVerdict = NO_IP_LIST_VERDICT;
    let streaks = NO_STREAKS;
    for (;;) {
      const step = decideSignIn(attempt.rules, facts);
      const outcome = { requestId: ledger.requestId, found, now };
      switch (step.kind) {
        case 'read':
          if (step.fact === 'user') {
            found = await opened.lockUser(streakKeys);
            facts.user = found?.user ?? null;
            facts.factors = factorFactsOf(found, this.approvals.reachableKinds());
            // no token codes: whether recovery or bypass codes can answer instead
            if (found && facts.factors.codes === 0) facts.standbyCodes = await this.standbyCodesOf(opened, found, now);
          } else if (step.fact === 'standbyCodes') {
            facts.standbyCodes = await this.standbyCodesOf(opened, userOf(found), now);
          } else if (step.fact === 'network') {
            verdict = await this.ipLists.verdict(opened.accountId, found?.ipListsRevision ?? null, origin.address, origin.resourceId);
            facts.network = verdict.decision;
          } else if (step.fact === 'codesLockedUntil') {
            const user = userOf(found);
            streaks = user.streaks
              ? { keys: streakKeys, rows: user.streaks }
              : await this.lockouts.streaksOf(opened.accountId, user.user.id, origin);
            facts.codesLockedUntil = lockoutInForce(streaks, now)?.until ?? null;
          } else if (step.fact === 'phoneCodeSent') {
            facts.phoneCodeSent = await this.phoneCodes.sentOn({ accountId: opened.accountId, requestId: ledger.requestId });
          } else if (step.fact === 'secretShown') {
            facts.secretShown = (await opened.enrollment?.secretShown()) ?? false;
          } else {
            throw new Error(`a stored request needs no ${step.fact}`);
          }
          continue;
        case 'foreign':
          throw new Error('a stored request was decided as foreign');
        case 'gone':
        case 'enroll':
          return { ...outcome, kind: step.kind };
        case 'closed':
          return { ...outcome, kind: 'closed', status: step.status };
        case 'expire':
          await ledger.expire();
          return { ...outcome, kind: 'closed', status: 'Expired' };
        case 'deny':
          if (codeAnswered && refusedItsCode(step.refusal)) this.metrics.otpVerification(origin.channel, 'locked');
          return { ...outcome, kind: 'denied', refusal: step.refusal, requestId: await ledger.deny(now, 0, found) };
        case 'wait':
          if (codeAnswered && step.prompt.kind === 'lockedOut') this.metrics.otpVerification(origin.channel, 'locked');
          return { ...outcome, kind: 'waiting', prompt: step.prompt, factor: step.factor, requestId: await ledger.wait(now) };
        case 'bypass':
          // unlocked too: a grant without a factor counts nothing, and bypass() writes it in a transaction (its own if none is open)
          return this.bypass(attempt, opened, userOf(found), verdict, now);
        case 'check': {
          if (locks === 'unlocked') throw new NeedsRowLocks();
          const user = userOf(found);
          const check =
            answered ??
            (await this.checkOf(step.factor, opened).check({
              accountId: opened.accountId,
              found: user,
              answer: attempt.answer,
              now,
              requestId: ledger.requestId,
              origin: { address: opened.address, resourceId: opened.resourceId, channel: opened.channel },
              approval: step.approval,
            }));
          return this.afterCheck(attempt, opened, user, step.factor, check, { now, origin, streaks });
        }
      }
    }
  }

  /**
   * Granted without a second factor: the address is on a Bypass list. Journaled (`AccessRequest
   * Bypass`) with the grant, in one transaction (the attempt's, or its own for a visit).
   */
  private bypass(
    attempt: SignInAttempt,
    opened: Opened,
    found: UserForCodeCheck,
    verdict: IpListVerdict,
    now: Date,
  ): Promise<SignInOutcome> {
    const { ledger } = opened;
    return this.db.transaction(async (): Promise<SignInOutcome> => {
      const granted = await ledger.grant(null, now, found);
      if (granted.kind !== 'granted') return { kind: 'superseded', requestId: ledger.requestId, found, now };
      const id = granted.requestId;
      await this.bypassJournal.record(opened.accountId, {
        identity: ledger.identity,
        // a Bypass verdict is given only for an address on a list
        userIp: opened.address as string,
        resourceId: opened.resourceId,
        lists: verdict.lists,
        requestId: id,
        channel: opened.channel,
      });
      await attempt.granted?.({ found, factor: null, now });
      return { kind: 'granted', factor: null, requestId: id, found, now };
    });
  }

  /**
   * What the check's result does: a grant first (its statement spends the code; one spent first makes
   * the answer a replay), then the streaks cleared; otherwise the streaks counted, then the request
   * denied, counted or left waiting.
   */
  private async afterCheck(
    attempt: SignInAttempt,
    opened: Opened,
    found: UserForCodeCheck,
    factor: SignInFactor,
    check: FactorCheckResult,
    context: { now: Date; origin: CodeOrigin; streaks: CodeAttemptStreaks },
  ): Promise<SignInOutcome> {
    const { accountId, ledger } = opened;
    const { now, origin, streaks } = context;
    const { user } = found;
    const outcome = { requestId: ledger.requestId, found, now };
    const decision = decideCheck(attempt.rules, factor, check.result, check.result === 'refused' ? check.refusal : undefined);
    const { next } = decision;
    if (next.kind === 'grant') {
      if (check.result !== 'granted') throw new Error(`a ${check.result} check was decided as a grant`);
      // first, as the code is spent in the grant's statement: a code whose step or counter was spent first is a replay
      const granted = await ledger.grant(check.factor, now, found, check.spend);
      if (granted.kind === 'replayed') return this.afterCheck(attempt, opened, found, factor, { result: 'replayed' }, context);
      if (attempt.answer.kind === 'code') this.metrics.otpVerification(origin.channel, 'granted');
      if (decision.streaks === 'forget') await this.lockouts.forgetOnGrant(accountId, user.id, streaks, now);
      if (granted.kind === 'superseded') return { ...outcome, kind: 'superseded' };
      await attempt.granted?.({ found, factor: check.factor, now });
      return { ...outcome, kind: 'granted', factor: check.factor, requestId: granted.requestId };
    }
    if (attempt.answer.kind === 'code' && (check.result === 'wrong' || check.result === 'replayed')) {
      this.metrics.otpVerification(origin.channel, check.result);
    }
    if (decision.streaks === 'count') await this.lockouts.countWrongCode(accountId, user, origin, streaks, now);
    switch (next.kind) {
      case 'deny':
        return { ...outcome, kind: 'denied', refusal: next.refusal, requestId: await ledger.deny(now, next.failedAttempts, found) };
      case 'wait':
        return { ...outcome, kind: 'waiting', prompt: next.prompt, factor, requestId: await ledger.wait(now) };
      case 'pending': {
        if (check.result !== 'pending') throw new Error(`a ${check.result} check was decided as pending`);
        const requestId = await ledger.wait(now);
        return { ...outcome, kind: 'pending', factor: check.factor, requestId, approval: await check.open(requestId) };
      }
      case 'codeSent': {
        if (check.result !== 'sent') throw new Error(`a ${check.result} check was decided as a code sent`);
        const requestId = await ledger.wait(now);
        await check.record(requestId);
        return { ...outcome, kind: 'waiting', prompt: { kind: 'codeSent', method: check.method }, factor, requestId };
      }
      case 'countOnRequest': {
        const counted = await ledger.countWrongCode();
        const after = decideCountedCode(counted);
        if (after.kind === 'wait') return { ...outcome, kind: 'waiting', prompt: after.prompt, factor, requestId: await ledger.wait(now) };
        // the count that spent the request's last attempt denied it
        if (counted) this.metrics.lockout(origin.channel, 'request');
        return { ...outcome, kind: 'denied', refusal: { kind: 'outOfCodes' } };
      }
    }
  }

  /** The check of each factor the decision names: the seam where a new way of proving the second factor plugs in. */
  private checkOf(factor: SignInFactor, opened: Opened): FactorCheck {
    switch (factor) {
      case 'code':
        return this.codes;
      case 'shownSecret':
        if (!opened.enrollment) throw new Error('only an entry point that enrolls shows a secret');
        return opened.enrollment;
      case 'approval':
        return this.approvals;
      case 'phoneCode':
        return this.phoneCodes;
      case 'standbyCode':
        return this.standbyCodes;
    }
  }

  private standbyCodesOf(opened: Opened, found: UserForCodeCheck, now: Date): Promise<{ live: number; stored: number }> {
    return this.storedStandbyCodes.countOfUser(opened.accountId, found.user.id, now);
  }
}

/** An attempt opened without row locks came to a factor's check: it is decided again under the locks. */
class NeedsRowLocks extends Error {
  constructor() {
    super('this attempt is decided under its row locks');
  }
}

/** A locked user, or codes locked out: the code answered was not looked at. */
function refusedItsCode(refusal: SignInRefusal): boolean {
  return refusal.kind === 'locked' || refusal.kind === 'lockedOut';
}

function userOf(found: UserForCodeCheck | null): UserForCodeCheck {
  if (!found) throw new Error('the decision went on without the user');
  return found;
}
