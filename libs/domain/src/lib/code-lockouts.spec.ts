import {
  addressOfScopeKey,
  addressScopeKey,
  CODE_LOCKOUT_MAX_MINUTES,
  CodeLockoutScope,
  lockedUntilOf,
  streakAfterWrongCode,
  WRONG_CODES_BEFORE_LOCKOUT,
  WRONG_CODES_PER_DAY_AT_MOST,
  WrongCodeStreak,
} from './code-lockouts';
import { minutesUntil } from './clock';

const T0 = new Date('2026-11-26T08:00:00Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

/** An attacker who sends a wrong code whenever the scope lets one be checked, for `hours`: how many were checked. */
function wrongCodesCheckedIn(scope: CodeLockoutScope, hours: number): number {
  const end = T0.getTime() + hours * 3_600_000;
  let now = T0;
  let streak: WrongCodeStreak | null = null;
  let checked = 0;
  while (now.getTime() < end) {
    const lockedUntil = lockedUntilOf(streak, now);
    if (lockedUntil) {
      now = lockedUntil;
      continue;
    }
    streak = streakAfterWrongCode(scope, streak, now).streak;
    checked += 1;
  }
  return checked;
}

describe('code lockouts', () => {
  it('takes 5 wrong codes from an address, and 20 through a resource, before the first lockout', () => {
    for (const scope of ['address', 'resource'] as const) {
      let streak: WrongCodeStreak | null = null;
      for (let n = 1; n < WRONG_CODES_BEFORE_LOCKOUT[scope]; n += 1) {
        const next = streakAfterWrongCode(scope, streak, T0);
        expect(next.lockedOut).toBe(false);
        streak = next.streak;
      }
      const last = streakAfterWrongCode(scope, streak, T0);
      expect({ scope, lockedOut: last.lockedOut, until: last.streak.lockedUntil }).toEqual({ scope, lockedOut: true, until: minutes(1) });
    }
    expect(WRONG_CODES_BEFORE_LOCKOUT).toEqual({ address: 5, resource: 20 });
  });

  it('doubles the lockout with every further wrong code, up to an hour', () => {
    let streak: WrongCodeStreak | null = null;
    for (let n = 0; n < 5; n += 1) streak = streakAfterWrongCode('address', streak, T0).streak;
    const lengths: number[] = [];
    let now = T0;
    for (let n = 0; n < 9; n += 1) {
      const until = lockedUntilOf(streak, now) as Date;
      lengths.push((until.getTime() - now.getTime()) / 60_000);
      now = until;
      streak = streakAfterWrongCode('address', streak, now).streak;
    }
    expect(lengths).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
    expect(CODE_LOCKOUT_MAX_MINUTES).toBe(60);
  });

  it('refuses until the lockout ends, and not a moment after', () => {
    const streak: WrongCodeStreak = { failures: 5, lastFailureAt: T0, lockedUntil: minutes(1) };
    expect(lockedUntilOf(streak, T0)).toEqual(minutes(1));
    expect(lockedUntilOf(streak, new Date(minutes(1).getTime() - 1))).toEqual(minutes(1));
    expect(lockedUntilOf(streak, minutes(1))).toBeNull();
    expect(lockedUntilOf(null, T0)).toBeNull();
  });

  it('forgets a streak whose last wrong code is a day old', () => {
    const old: WrongCodeStreak = { failures: 30, lastFailureAt: T0, lockedUntil: minutes(60) };
    const dayLater = minutes(24 * 60);
    expect(streakAfterWrongCode('address', old, dayLater)).toEqual({
      streak: { failures: 1, lastFailureAt: dayLater, lockedUntil: null },
      lockedOut: false,
    });
    expect(streakAfterWrongCode('address', old, minutes(24 * 60 - 1)).streak.failures).toBe(31);
  });

  it('keeps the guess budget per day to the documented figures (33 from one address, 48 through one resource)', () => {
    expect(wrongCodesCheckedIn('address', 24)).toBe(WRONG_CODES_PER_DAY_AT_MOST.address);
    expect(wrongCodesCheckedIn('resource', 24)).toBe(WRONG_CODES_PER_DAY_AT_MOST.resource);
    expect(WRONG_CODES_PER_DAY_AT_MOST).toEqual({ address: 33, resource: 48 });
    // and the second day of a steady attack is slower still: one code an hour
    expect(wrongCodesCheckedIn('address', 48) - wrongCodesCheckedIn('address', 24)).toBe(24);
  });

  it('tells the user whole minutes to wait, at least one', () => {
    expect(minutesUntil(minutes(1), T0)).toBe(1);
    expect(minutesUntil(new Date(T0.getTime() + 61_000), T0)).toBe(2);
    expect(minutesUntil(T0, T0)).toBe(1);
  });
});

describe('the key of an address scope', () => {
  it('is the network alone for the page’s visitors, shared by every page', () => {
    expect(addressScopeKey('198.51.100.7', { kind: 'page' })).toBe('198.51.100.7');
    expect(addressOfScopeKey('198.51.100.7')).toEqual({ network: '198.51.100.7', resourceId: null });
  });

  it('carries the resource that named the address, so that it counts for that resource alone', () => {
    const key = addressScopeKey('2001:db8:1:2::/64', { kind: 'resource', resourceId: 'r-1' });
    expect(key).toBe('2001:db8:1:2::/64@r-1');
    expect(key).not.toBe(addressScopeKey('2001:db8:1:2::/64', { kind: 'resource', resourceId: 'r-2' }));
    expect(key).not.toBe(addressScopeKey('2001:db8:1:2::/64', { kind: 'page' }));
    expect(addressOfScopeKey(key)).toEqual({ network: '2001:db8:1:2::/64', resourceId: 'r-1' });
  });
});
