import {
  decideCheck,
  decideCountedCode,
  decideSignIn,
  SIGN_IN_RULES,
  SignInAnswer,
  SignInFacts,
  SignInRules,
  SignInStep,
} from './access-decision';
import { ACCESS_REQUEST_MAX_FAILED_CODES, ACCESS_REQUEST_TTL_MINUTES } from './access-requests';

const created = new Date('2026-03-01T10:00:00Z');
const minutes = (n: number) => new Date(created.getTime() + n * 60_000);
const lockedUntil = minutes(3);
const code: SignInAnswer = { kind: 'code', code: '123456' };

/**
 * An awaiting request of an unlocked user with one TOTP app, a minute after it was created, a code
 * answered, from an address on no IP list, with no lockout in force: every fact read.
 */
function facts(changes: Partial<SignInFacts> = {}): SignInFacts {
  return {
    now: minutes(1),
    request: { kind: 'stored', status: 'AwaitingAuthentication', createdAt: created },
    user: { isLocked: false },
    factors: { codes: 1, hasSecondFactor: true, everyFactorDisabled: false },
    answer: code,
    network: 'none',
    codesLockedUntil: null,
    secretShown: false,
    ...changes,
  };
}

/** A user with no second factor at all. */
const newcomer = { factors: { codes: 0, hasSecondFactor: false, everyFactorDisabled: false } };
/** A user whose only second factor cannot answer a code (a phone, Telegram). */
const phoneOnly = { factors: { codes: 0, hasSecondFactor: true, everyFactorDisabled: false } };
/** A user whose every authenticator an administrator disabled. */
const disabled = { factors: { codes: 0, hasSecondFactor: true, everyFactorDisabled: true } };

const page = SIGN_IN_RULES.page;
const ra = SIGN_IN_RULES.ra;
const challenge = SIGN_IN_RULES.raChallenge;
const md = SIGN_IN_RULES.md;
const la = SIGN_IN_RULES.la;
/** Every way of signing in that can take a code (`la` never does: it is always an approval). */
const everyWay = (Object.entries(SIGN_IN_RULES) as [string, SignInRules][]).filter(([name]) => name !== 'la');

describe('decideSignIn on the access page: what a submitted code does before it is checked', () => {
  it('checks the code against the authenticators of an enrolled user', () => {
    expect(decideSignIn(page, facts())).toEqual({ kind: 'check', factor: 'code' });
  });

  it('a request that is gone', () => {
    expect(decideSignIn(page, facts({ request: { kind: 'gone' } }))).toEqual({ kind: 'gone' });
  });

  it.each(['Granted', 'Denied', 'Expired'] as const)('a request decided before (%s) stays as it is', (status) => {
    expect(decideSignIn(page, facts({ request: { kind: 'stored', status, createdAt: created } }))).toEqual({ kind: 'closed', status });
  });

  it('an awaiting request past its time becomes Expired, from the first instant of its expiry', () => {
    expect(decideSignIn(page, facts({ now: minutes(ACCESS_REQUEST_TTL_MINUTES) }))).toEqual({ kind: 'expire' });
    expect(decideSignIn(page, facts({ now: new Date(minutes(ACCESS_REQUEST_TTL_MINUTES).getTime() - 1) })).kind).toBe('check');
  });

  it('a decided request is shown as decided even past its time (not expired over)', () => {
    const granted = facts({ request: { kind: 'stored', status: 'Granted', createdAt: created }, now: minutes(60) });
    expect(decideSignIn(page, granted)).toEqual({ kind: 'closed', status: 'Granted' });
  });

  it('a user that is gone (the page registered its newcomer before the request was locked)', () => {
    expect(decideSignIn(page, facts({ user: null }))).toEqual({ kind: 'gone' });
  });

  it('the user is read once the request is known to be open', () => {
    expect(decideSignIn(page, facts({ user: undefined }))).toEqual({ kind: 'read', fact: 'user' });
    expect(decideSignIn(page, facts({ user: undefined, request: { kind: 'stored', status: 'Granted', createdAt: created } })).kind).toBe(
      'closed',
    );
  });

  it('a decided request is closed even when its user is gone', () => {
    expect(decideSignIn(page, facts({ request: { kind: 'stored', status: 'Denied', createdAt: created }, user: null })).kind).toBe(
      'closed',
    );
  });

  it('a locked user is refused, before the attempts are counted', () => {
    expect(decideSignIn(page, facts({ user: { isLocked: true }, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'locked' },
    });
  });

  it('a user locked out for wrong codes (from this address or through this resource) has no code checked, and the request waits', () => {
    expect(decideSignIn(page, facts({ codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'lockedOut', until: lockedUntil },
      factor: 'code',
    });
  });

  it('a lockout does not stop a user without authenticators from enrolling: there is no code of theirs to guess', () => {
    expect(decideSignIn(page, facts({ ...newcomer, secretShown: true, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'check',
      factor: 'shownSecret',
    });
  });

  it('a user whose only second factor the page cannot check (a phone, Telegram) is refused, not enrolled over it', () => {
    expect(decideSignIn(page, facts({ ...phoneOnly, secretShown: true }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'unusableSecondFactor' },
    });
  });

  it('a user whose every authenticator is disabled is refused, never enrolled', () => {
    expect(decideSignIn(page, facts({ ...disabled, secretShown: false }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'secondFactorDisabled' },
    });
    expect(decideSignIn(page, facts({ ...disabled, secretShown: true }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'secondFactorDisabled' },
    });
    expect(decideSignIn(page, facts({ ...disabled, user: { isLocked: true } }))).toEqual({ kind: 'deny', refusal: { kind: 'locked' } });
  });

  it('a user without a second factor is shown a secret first, and no attempt is counted', () => {
    expect(decideSignIn(page, facts({ ...newcomer, secretShown: false }))).toEqual({ kind: 'enroll' });
  });

  it('a user without a second factor who was shown a secret: the code is checked against it', () => {
    expect(decideSignIn(page, facts({ ...newcomer, secretShown: true }))).toEqual({ kind: 'check', factor: 'shownSecret' });
  });

  it('an enrolled user is checked against the authenticators, even with a secret shown earlier', () => {
    expect(decideSignIn(page, facts({ secretShown: true }))).toEqual({ kind: 'check', factor: 'code' });
  });

  it('the page shown (a visit) asks for the code or enrolls, consulting no lockout', () => {
    const visit: SignInAnswer = { kind: 'visit' };
    expect(decideSignIn(page, facts({ answer: visit, codesLockedUntil: undefined }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'enterCode' },
      factor: 'code',
    });
    expect(decideSignIn(page, facts({ ...newcomer, answer: visit, secretShown: undefined }))).toEqual({ kind: 'enroll' });
    expect(decideSignIn(page, facts({ ...phoneOnly, answer: visit }))).toEqual({ kind: 'deny', refusal: { kind: 'unusableSecondFactor' } });
  });
});

describe('decideSignIn on the ra family', () => {
  const newRequest = { request: { kind: 'new' } } as const;

  it('an identity the account does not know is UserNotRegistered, whatever the network', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, user: null, network: 'bypass' }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'unknownUser' },
    });
  });

  it('a locked user is Denied whatever the lists say', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, user: { isLocked: true }, network: 'bypass' }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'locked' },
    });
  });

  it('Deny and Bypass come before any factor is looked at', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...newcomer, network: 'deny' }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'networkDenied' },
    });
    expect(
      decideSignIn(ra, facts({ ...newRequest, ...newcomer, network: 'bypass', answer: { kind: 'delivery', method: 'push' } })),
    ).toEqual({
      kind: 'bypass',
    });
  });

  it('a directory bind cannot ask twice: a delivery letter it cannot serve is Denied, before any lockout', () => {
    expect(decideSignIn(md, facts({ ...newRequest, answer: { kind: 'delivery', method: 'sms' }, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'deliveryUnavailable', method: 'sms' },
    });
  });

  it('a challenge asks for the code instead, once no lockout is in force', () => {
    const letter: SignInAnswer = { kind: 'delivery', method: 'telegram' };
    expect(decideSignIn(challenge, facts({ answer: letter }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'methodUnavailable', method: 'telegram' },
      factor: 'code',
    });
    expect(decideSignIn(challenge, facts({ answer: letter, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'lockedOut', until: lockedUntil },
    });
  });

  it('no code yet: the request waits for it, unless codes are locked out (the lockout denies on the ra family)', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, answer: { kind: 'none' } }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'enterCode' },
      factor: 'code',
    });
    expect(decideSignIn(ra, facts({ ...newRequest, answer: { kind: 'none' }, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'lockedOut', until: lockedUntil },
    });
  });

  it('a user without any second factor is told to set one up: only the page enrolls', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...newcomer }))).toEqual({ kind: 'deny', refusal: { kind: 'noSecondFactor' } });
    expect(decideSignIn(challenge, facts({ ...newcomer }))).toEqual({ kind: 'deny', refusal: { kind: 'noSecondFactor' } });
  });

  it('a challenge naming no request of the caller reads whether the identity is known, and touches nothing', () => {
    const foreign = facts({ request: { kind: 'foreign' }, user: null });
    expect(decideSignIn(challenge, foreign)).toEqual({ kind: 'read', fact: 'identityKnown' });
    expect(decideSignIn(challenge, { ...foreign, identityKnown: false })).toEqual({ kind: 'foreign', reason: 'unknownUser' });
    expect(decideSignIn(challenge, { ...foreign, identityKnown: true })).toEqual({ kind: 'foreign', reason: 'requestNotValid' });
  });
});

describe('decideSignIn: one decision for every way of signing in', () => {
  it.each(everyWay)('%s: a user none of whose factors can answer is refused alike (disabled, unusable)', (_, rules) => {
    for (const answer of [code, { kind: 'none' } as const]) {
      expect(decideSignIn(rules, facts({ ...disabled, answer }))).toEqual({ kind: 'deny', refusal: { kind: 'secondFactorDisabled' } });
      expect(decideSignIn(rules, facts({ ...phoneOnly, answer }))).toEqual({ kind: 'deny', refusal: { kind: 'unusableSecondFactor' } });
    }
  });

  it.each(everyWay)('%s: the refusals come in one order: request, user, network, factors, lockouts', (_, rules) => {
    const request = rules.oneCall
      ? ({ kind: 'new' } as const)
      : ({ kind: 'stored', status: 'AwaitingAuthentication', createdAt: created } as const);
    const worst = facts({ request, user: { isLocked: true }, network: 'deny', ...disabled, codesLockedUntil: lockedUntil });
    const steps: SignInStep[] = [];
    for (const fix of [
      {},
      { user: { isLocked: false } },
      { network: 'none' as const },
      { factors: { codes: 1, hasSecondFactor: true, everyFactorDisabled: false } },
    ])
      steps.push(decideSignIn(rules, Object.assign(worst, fix)));
    expect(steps.map((step) => (step.kind === 'deny' ? step.refusal.kind : step.kind))).toEqual([
      'locked',
      'networkDenied',
      'secondFactorDisabled',
      rules.lockoutDenies ? 'lockedOut' : 'wait',
    ]);
  });

  it.each(everyWay)('%s: each costly fact is read only when its step is reached', (_, rules) => {
    const request = rules.oneCall
      ? ({ kind: 'new' } as const)
      : ({ kind: 'stored', status: 'AwaitingAuthentication', createdAt: created } as const);
    const unread = { request, network: undefined, codesLockedUntil: undefined, secretShown: undefined };
    expect(decideSignIn(rules, facts({ ...unread, user: { isLocked: true } }))).toEqual({ kind: 'deny', refusal: { kind: 'locked' } });
    expect(decideSignIn(rules, facts(unread))).toEqual({ kind: 'read', fact: 'network' });
    expect(decideSignIn(rules, facts({ ...unread, network: 'deny' })).kind).toBe('deny');
    expect(decideSignIn(rules, facts({ ...unread, network: 'none' }))).toEqual({ kind: 'read', fact: 'codesLockedUntil' });
    expect(decideSignIn(rules, facts({ ...unread, network: 'none', ...phoneOnly })).kind).toBe('deny');
  });
});

describe('decideCheck and decideCountedCode: what the checked factor does', () => {
  it('an accepted code grants and clears the streaks; an accepted enrollment has none to clear', () => {
    expect(decideCheck(page, 'code', 'granted')).toEqual({ streaks: 'forget', next: { kind: 'grant' } });
    expect(decideCheck(ra, 'code', 'granted')).toEqual({ streaks: 'forget', next: { kind: 'grant' } });
    expect(decideCheck(page, 'shownSecret', 'granted')).toEqual({ streaks: 'keep', next: { kind: 'grant' } });
  });

  it('a wrong code counts in the streaks; one call spends its one attempt, a waiting request counts it', () => {
    expect(decideCheck(ra, 'code', 'wrong')).toEqual({
      streaks: 'count',
      next: { kind: 'deny', refusal: { kind: 'wrongCode' }, failedAttempts: 1 },
    });
    expect(decideCheck(challenge, 'code', 'wrong')).toEqual({ streaks: 'count', next: { kind: 'countOnRequest' } });
    // no owner's code to guess while enrolling: the request's own attempts still count
    expect(decideCheck(page, 'shownSecret', 'wrong')).toEqual({ streaks: 'keep', next: { kind: 'countOnRequest' } });
  });

  it('a replayed code (already spent) counts nothing: one call is over, a waiting request asks again', () => {
    expect(decideCheck(ra, 'code', 'replayed')).toEqual({
      streaks: 'keep',
      next: { kind: 'deny', refusal: { kind: 'codeAlreadyUsed' }, failedAttempts: 0 },
    });
    expect(decideCheck(page, 'code', 'replayed')).toEqual({ streaks: 'keep', next: { kind: 'wait', prompt: { kind: 'codeAlreadyUsed' } } });
  });

  it('an approval asked of a person leaves the request waiting, outside the transaction', () => {
    expect(decideCheck(ra, 'code', 'pending')).toEqual({ streaks: 'keep', next: { kind: 'pending' } });
  });

  it('a wrong code counted on an awaiting request shows the attempts left', () => {
    expect(decideCountedCode({ failedAttempts: 1, status: 'AwaitingAuthentication' })).toEqual({
      kind: 'wait',
      prompt: { kind: 'wrongCode', attemptsLeft: ACCESS_REQUEST_MAX_FAILED_CODES - 1 },
    });
    expect(decideCountedCode({ failedAttempts: 4, status: 'AwaitingAuthentication' })).toEqual({
      kind: 'wait',
      prompt: { kind: 'wrongCode', attemptsLeft: 1 },
    });
  });

  it('the wrong code whose count denied the request ends it', () => {
    expect(decideCountedCode({ failedAttempts: ACCESS_REQUEST_MAX_FAILED_CODES, status: 'Denied' })).toEqual({ kind: 'outOfCodes' });
  });

  it('a wrong code on a request another attempt decided meanwhile ends it', () => {
    expect(decideCountedCode(null)).toEqual({ kind: 'outOfCodes' });
  });
});

describe('decideSignIn with approval factors: who is asked to confirm on the phone', () => {
  const newRequest = { request: { kind: 'new' } } as const;
  const telegram = { id: 'tg-1', kind: 'Telegram' as const, createdAt: created };
  const push = { id: 'app-1', kind: 'MobileApp' as const, createdAt: minutes(-5) };
  /** a user whose only usable factor is a Telegram chat */
  const telegramOnly = { factors: { codes: 0, hasSecondFactor: true, everyFactorDisabled: false, approvals: [telegram] } };
  /** a user with an authenticator app and a Telegram chat */
  const both = { factors: { codes: 1, hasSecondFactor: true, everyFactorDisabled: false, approvals: [telegram] } };
  const letter = (method: 'telegram' | 'push' | 'sms'): SignInAnswer => ({ kind: 'delivery', method });
  const asks = (factor: typeof telegram | typeof push, withNumber = false) => ({
    kind: 'check',
    factor: 'approval',
    approval: { factor, withNumber },
  });

  it('`t` and `m` ask the approval factor the user has; a letter is a preference, not a demand', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...both, answer: letter('telegram') }))).toEqual(asks(telegram));
    expect(decideSignIn(ra, facts({ ...newRequest, ...both, answer: letter('push') }))).toEqual(asks(telegram));
    expect(decideSignIn(md, facts({ ...newRequest, ...telegramOnly, answer: letter('sms') }))).toEqual(asks(telegram));
    const withApp = { factors: { ...both.factors, approvals: [telegram, push] } };
    expect(decideSignIn(ra, facts({ ...newRequest, ...withApp, answer: letter('telegram') }))).toEqual(asks(telegram));
    expect(decideSignIn(ra, facts({ ...newRequest, ...withApp, answer: letter('push') }))).toEqual(asks(push));
  });

  it('no passCode: a user with only approval factors is asked to approve; one with a code factor gets the code prompt', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...telegramOnly, answer: { kind: 'none' } }))).toEqual(asks(telegram));
    expect(decideSignIn(ra, facts({ ...newRequest, ...both, answer: { kind: 'none' } }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'enterCode' },
      factor: 'code',
    });
  });

  it('a code is checked as a code; a code from a user without a code factor is refused', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...both }))).toEqual({ kind: 'check', factor: 'code' });
    expect(decideSignIn(ra, facts({ ...newRequest, ...telegramOnly }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'unusableSecondFactor' },
    });
  });

  it('a letter without any approval factor: ra prompts for the code, a directory bind is told to append it', () => {
    expect(decideSignIn(ra, facts({ ...newRequest, answer: letter('push') }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'methodUnavailable', method: 'push' },
      factor: 'code',
    });
    expect(decideSignIn(md, facts({ ...newRequest, answer: letter('push') }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'deliveryUnavailable', method: 'push' },
    });
  });

  it('`t` typed at the challenge prompt asks the approval on the same request', () => {
    expect(decideSignIn(challenge, facts({ ...both, answer: letter('telegram') }))).toEqual(asks(telegram));
  });

  it('la is always an approval: without an approval factor it is refused, whatever else the user has', () => {
    expect(decideSignIn(la, facts({ ...newRequest, ...both, answer: { kind: 'none' } }))).toEqual(asks(telegram));
    expect(decideSignIn(la, facts({ ...newRequest, answer: { kind: 'none' } }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'noApprovalFactor' },
    });
    expect(decideSignIn(la, facts({ ...newRequest, user: null, answer: { kind: 'none' } }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'unknownUser' },
    });
  });

  it("an approval is not a guess: no lockout is read for it, and the person's answer resumes at the check", () => {
    expect(decideSignIn(ra, facts({ ...newRequest, ...telegramOnly, answer: { kind: 'none' }, codesLockedUntil: undefined }))).toEqual(
      asks(telegram),
    );
    expect(decideSignIn(challenge, facts({ ...telegramOnly, answer: { kind: 'approvalAnswered' }, codesLockedUntil: undefined }))).toEqual({
      kind: 'check',
      factor: 'approval',
    });
    // decided anew on resumption: a user locked meanwhile is refused
    expect(decideSignIn(challenge, facts({ ...telegramOnly, answer: { kind: 'approvalAnswered' }, user: { isLocked: true } }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'locked' },
    });
  });

  it('a refused approval denies the request, whoever asked; the streaks stay as they are', () => {
    for (const rules of [ra, challenge, la, page])
      expect(decideCheck(rules, 'approval', 'refused', { kind: 'approvalRejected' })).toEqual({
        streaks: 'keep',
        next: { kind: 'deny', refusal: { kind: 'approvalRejected' }, failedAttempts: 0 },
      });
    expect(decideCheck(la, 'approval', 'granted')).toEqual({ streaks: 'keep', next: { kind: 'grant' } });
  });
});
