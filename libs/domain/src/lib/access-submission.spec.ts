import { ACCESS_REQUEST_MAX_FAILED_CODES, ACCESS_REQUEST_TTL_MINUTES } from './access-requests';
import { decideCodeCheck, decideSubmission, SubmissionState } from './access-submission';

const created = new Date('2026-03-01T10:00:00Z');
const minutes = (n: number) => new Date(created.getTime() + n * 60_000);
const lockedUntil = minutes(3);

/** An awaiting request of an unlocked user with one TOTP app, a minute after it was created. */
function state(changes: Partial<SubmissionState> = {}): SubmissionState {
  return {
    request: { status: 'AwaitingAuthentication', createdAt: created },
    now: minutes(1),
    user: { isLocked: false },
    codesLockedUntil: null,
    otpAuthenticators: 1,
    hasSecondFactor: true,
    everyFactorDisabled: false,
    secretShown: false,
    ...changes,
  };
}

/** A user with no second factor at all: the page enrolls an authenticator app. */
const newcomer = { otpAuthenticators: 0, hasSecondFactor: false };

describe('decideSubmission: what a code submitted on the access page does, before the code is checked', () => {
  it('checks the code against the authenticators of an enrolled user', () => {
    expect(decideSubmission(state())).toEqual({ kind: 'checkCode', against: 'authenticators' });
  });

  it('a request that is gone', () => {
    expect(decideSubmission(state({ request: null }))).toEqual({ kind: 'gone' });
  });

  it.each(['Granted', 'Denied', 'Expired'] as const)('a request decided before (%s) stays as it is', (status) => {
    expect(decideSubmission(state({ request: { status, createdAt: created } }))).toEqual({ kind: 'closed', status });
  });

  it('an awaiting request past its time becomes Expired, from the first instant of its expiry', () => {
    expect(decideSubmission(state({ now: minutes(ACCESS_REQUEST_TTL_MINUTES) }))).toEqual({ kind: 'expire' });
    expect(decideSubmission(state({ now: new Date(minutes(ACCESS_REQUEST_TTL_MINUTES).getTime() - 1) })).kind).toBe('checkCode');
  });

  it('a decided request is shown as decided even past its time (not expired over)', () => {
    expect(decideSubmission(state({ request: { status: 'Granted', createdAt: created }, now: minutes(60) }))).toEqual({
      kind: 'closed',
      status: 'Granted',
    });
  });

  it('a user that is gone', () => {
    expect(decideSubmission(state({ user: null }))).toEqual({ kind: 'gone' });
  });

  it('a decided request is closed even when its user is gone', () => {
    expect(decideSubmission(state({ request: { status: 'Denied', createdAt: created }, user: null })).kind).toBe('closed');
  });

  it('a locked user is refused, before the attempts are counted', () => {
    expect(decideSubmission(state({ user: { isLocked: true }, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'refused',
      reason: 'locked',
    });
  });

  it('a user locked out for wrong codes (from this address or through this resource) has no code checked, and the request waits', () => {
    expect(decideSubmission(state({ codesLockedUntil: lockedUntil }))).toEqual({ kind: 'lockedOut', until: lockedUntil });
  });

  it('a lockout does not stop a user without authenticators from enrolling: there is no code of theirs to guess', () => {
    expect(decideSubmission(state({ ...newcomer, secretShown: true, codesLockedUntil: lockedUntil }))).toEqual({
      kind: 'checkCode',
      against: 'shownSecret',
    });
  });

  it('a user whose only second factor the page cannot check (a phone, Telegram) is refused, not enrolled over it', () => {
    expect(decideSubmission(state({ otpAuthenticators: 0, hasSecondFactor: true, secretShown: true }))).toEqual({
      kind: 'refused',
      reason: 'noOtpFactor',
    });
  });

  it('a user whose every authenticator is disabled is refused, never enrolled (issue 14)', () => {
    const disabled = { otpAuthenticators: 0, hasSecondFactor: true, everyFactorDisabled: true };
    expect(decideSubmission(state({ ...disabled, secretShown: false }))).toEqual({ kind: 'refused', reason: 'factorsDisabled' });
    expect(decideSubmission(state({ ...disabled, secretShown: true }))).toEqual({ kind: 'refused', reason: 'factorsDisabled' });
    expect(decideSubmission(state({ ...disabled, user: { isLocked: true } }))).toEqual({ kind: 'refused', reason: 'locked' });
  });

  it('a user without a second factor is shown a secret first, and no attempt is counted', () => {
    expect(decideSubmission(state({ ...newcomer, secretShown: false }))).toEqual({ kind: 'showSecret' });
  });

  it('a user without a second factor who was shown a secret: the code is checked against it', () => {
    expect(decideSubmission(state({ ...newcomer, secretShown: true }))).toEqual({ kind: 'checkCode', against: 'shownSecret' });
  });

  it('an enrolled user is checked against the authenticators, even with a secret shown earlier', () => {
    expect(decideSubmission(state({ secretShown: true }))).toEqual({ kind: 'checkCode', against: 'authenticators' });
  });
});

describe('decideCodeCheck: what the checked code does', () => {
  it('an accepted code grants', () => {
    expect(decideCodeCheck({ result: 'granted', authenticator: 'HotpToken' })).toEqual({ kind: 'granted', authenticator: 'HotpToken' });
  });

  it('a wrong code counted on an awaiting request shows the attempts left', () => {
    expect(decideCodeCheck({ result: 'wrong', counted: { failedAttempts: 1, status: 'AwaitingAuthentication' } })).toEqual({
      kind: 'wrongCode',
      attemptsLeft: ACCESS_REQUEST_MAX_FAILED_CODES - 1,
    });
    expect(decideCodeCheck({ result: 'wrong', counted: { failedAttempts: 4, status: 'AwaitingAuthentication' } })).toEqual({
      kind: 'wrongCode',
      attemptsLeft: 1,
    });
  });

  it('a replayed code (already spent) counts nothing and shows the form again', () => {
    expect(decideCodeCheck({ result: 'replayed' })).toEqual({ kind: 'alreadyUsed' });
  });

  it('the wrong code whose count denied the request ends it', () => {
    expect(decideCodeCheck({ result: 'wrong', counted: { failedAttempts: ACCESS_REQUEST_MAX_FAILED_CODES, status: 'Denied' } })).toEqual({
      kind: 'outOfCodes',
    });
  });

  it('a wrong code on a request another submission decided meanwhile ends it', () => {
    expect(decideCodeCheck({ result: 'wrong', counted: null })).toEqual({ kind: 'outOfCodes' });
  });
});
