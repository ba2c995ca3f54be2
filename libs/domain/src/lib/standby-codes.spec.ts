import { decideSignIn, SIGN_IN_RULES, SignInFacts } from './access-decision';
import { displayStandbyCode, looksLikeStandbyCode, normalizeStandbyCode, parseCreateBypassCodes } from './standby-codes';

describe('standby codes (recovery and bypass codes)', () => {
  it('reads a code as typed: dashes, spaces and case do not matter, O I L read as 0 1 1', () => {
    expect(normalizeStandbyCode('7k2m-9qxd-4rpa')).toBe('7K2M9QXD4RPA');
    expect(normalizeStandbyCode(' 7K2M 9QXD 4RPA ')).toBe('7K2M9QXD4RPA');
    expect(normalizeStandbyCode('OIL0-0000-0000')).toBe('011000000000');
    expect(displayStandbyCode('7K2M9QXD4RPA')).toBe('7K2M-9QXD-4RPA');
  });

  it('is told apart from a token code by its length and alphabet', () => {
    expect(looksLikeStandbyCode('123456')).toBe(false);
    expect(looksLikeStandbyCode('12345678')).toBe(false);
    expect(looksLikeStandbyCode('7K2M-9QXD-4RP')).toBe(false);
    expect(looksLikeStandbyCode('7K2M-9QXD-4RPU')).toBe(false);
    expect(looksLikeStandbyCode('123456789012')).toBe(true);
  });

  it('bounds count, uses and ttlMinutes, with defaults', () => {
    expect(parseCreateBypassCodes(undefined)).toEqual({ count: 1, uses: 1, ttlMinutes: 60 });
    expect(parseCreateBypassCodes({ Count: 10, USES: 10, ttlminutes: 1440 })).toEqual({ count: 10, uses: 10, ttlMinutes: 1440 });
    expect(() => parseCreateBypassCodes({ count: 11 })).toThrow('count must be an integer from 1 to 10.');
    expect(() => parseCreateBypassCodes({ ttlMinutes: 4 })).toThrow('ttlMinutes must be an integer from 5 to 1440.');
    expect(() => parseCreateBypassCodes([])).toThrow('The request body must be a JSON object.');
  });

  describe('in the access decision', () => {
    const standby = { kind: 'code', code: '7K2M-9QXD-4RPA' } as const;
    const facts = (changes: Partial<SignInFacts>): SignInFacts => ({
      now: new Date('2026-03-01T10:01:00Z'),
      request: { kind: 'new' },
      user: { isLocked: false },
      factors: { codes: 1, hasSecondFactor: true, everyFactorDisabled: false },
      answer: standby,
      network: 'none',
      codesLockedUntil: null,
      ...changes,
    });

    it("a code in their format asks for the user's standby codes, then checks it as one (a lockout still applies)", () => {
      expect(decideSignIn(SIGN_IN_RULES.ra, facts({}))).toEqual({ kind: 'read', fact: 'standbyCodes' });
      expect(decideSignIn(SIGN_IN_RULES.ra, facts({ standbyCodes: { live: 0, stored: 1 } }))).toEqual({
        kind: 'check',
        factor: 'standbyCode',
      });
      expect(decideSignIn(SIGN_IN_RULES.ra, facts({ standbyCodes: { live: 1, stored: 1 }, codesLockedUntil: undefined }))).toEqual({
        kind: 'read',
        fact: 'codesLockedUntil',
      });
    });

    it('without any standby code it is checked as a token code; a user with only standby codes is asked for one', () => {
      expect(decideSignIn(SIGN_IN_RULES.ra, facts({ standbyCodes: { live: 0, stored: 0 } }))).toEqual({ kind: 'check', factor: 'code' });
      const noToken = { codes: 0, hasSecondFactor: false, everyFactorDisabled: false };
      expect(
        decideSignIn(SIGN_IN_RULES.ra, facts({ factors: noToken, answer: { kind: 'none' }, standbyCodes: { live: 2, stored: 2 } })),
      ).toEqual({
        kind: 'wait',
        prompt: { kind: 'enterCode' },
        factor: 'standbyCode',
      });
      expect(
        decideSignIn(SIGN_IN_RULES.ra, facts({ factors: noToken, answer: { kind: 'none' }, standbyCodes: { live: 0, stored: 2 } })),
      ).toEqual({
        kind: 'deny',
        refusal: { kind: 'noSecondFactor' },
      });
    });
  });
});
