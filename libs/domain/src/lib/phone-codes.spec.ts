import { decideCheck, decideSignIn, SIGN_IN_RULES, SignInFacts } from './access-decision';
import {
  DEFAULT_PHONE_CODE_LIMITS,
  destinationRange,
  maskPhoneNumber,
  newPhoneCode,
  parseDestinationPrefix,
  phoneCodeLimitHit,
} from './phone-codes';

const created = new Date('2026-03-01T10:00:00Z');
const now = new Date(created.getTime() + 60_000);

/** A stored awaiting request of a user with one TOTP app and a phone, every fact read. */
function facts(changes: Partial<SignInFacts> = {}): SignInFacts {
  return {
    now,
    request: { kind: 'stored', status: 'AwaitingAuthentication', createdAt: created },
    user: { isLocked: false },
    factors: { codes: 1, hasSecondFactor: true, everyFactorDisabled: false, phoneMethods: ['sms', 'call'] },
    answer: { kind: 'delivery', method: 'sms' },
    network: 'none',
    codesLockedUntil: null,
    ...changes,
  };
}
const phoneOnly = { codes: 0, hasSecondFactor: true, everyFactorDisabled: false, phoneMethods: ['sms', 'call'] as const };
const telegram = [{ id: 'tg', kind: 'Telegram' as const, createdAt: created }];

describe('codes sent to a phone in the access decision', () => {
  it('`s` and `c` send a code on ra and ra/challenge, even for a user with Telegram', () => {
    const sms = { kind: 'delivery', method: 'sms' } as const;
    const call = { kind: 'delivery', method: 'call' } as const;
    expect(decideSignIn(SIGN_IN_RULES.ra, facts({ request: { kind: 'new' }, answer: sms }))).toEqual({
      kind: 'check',
      factor: 'phoneCode',
    });
    expect(decideSignIn(SIGN_IN_RULES.raChallenge, facts({ answer: call }))).toEqual({ kind: 'check', factor: 'phoneCode' });
    const withTelegram = facts({ answer: sms, factors: { ...facts().factors, approvals: telegram } });
    expect(decideSignIn(SIGN_IN_RULES.ra, withTelegram)).toEqual({ kind: 'check', factor: 'phoneCode' });
  });

  it('md and la cannot ask for the code: they fall back as for any letter they cannot serve', () => {
    const sms = { kind: 'delivery', method: 'sms' } as const;
    expect(decideSignIn(SIGN_IN_RULES.md, facts({ request: { kind: 'new' }, answer: sms }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'deliveryUnavailable', method: 'sms' },
    });
    expect(decideSignIn(SIGN_IN_RULES.la, facts({ request: { kind: 'new' }, answer: { kind: 'none' }, factors: phoneOnly }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'noApprovalFactor' },
    });
  });

  it('`s` for a user without a phone falls back to the code prompt', () => {
    const noPhone = { ...facts().factors, phoneMethods: [] };
    expect(decideSignIn(SIGN_IN_RULES.ra, facts({ request: { kind: 'new' }, factors: noPhone }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'methodUnavailable', method: 'sms' },
      factor: 'code',
    });
  });

  it('a user whose only factor is a phone gets an SMS for ra without a code', () => {
    expect(decideSignIn(SIGN_IN_RULES.ra, facts({ request: { kind: 'new' }, answer: { kind: 'none' }, factors: phoneOnly }))).toEqual({
      kind: 'check',
      factor: 'phoneCode',
    });
  });

  it('a code answered on a request that sent one is checked as the phone code, under the lockouts', () => {
    const code = { kind: 'code', code: '123456' } as const;
    expect(decideSignIn(SIGN_IN_RULES.raChallenge, facts({ answer: code }))).toEqual({ kind: 'read', fact: 'phoneCodeSent' });
    expect(decideSignIn(SIGN_IN_RULES.raChallenge, facts({ answer: code, phoneCodeSent: true, factors: phoneOnly }))).toEqual({
      kind: 'check',
      factor: 'phoneCode',
    });
    expect(decideSignIn(SIGN_IN_RULES.raChallenge, facts({ answer: code, phoneCodeSent: false }))).toEqual({
      kind: 'check',
      factor: 'code',
    });
    const until = new Date(now.getTime() + 60_000);
    expect(decideSignIn(SIGN_IN_RULES.raChallenge, facts({ answer: code, phoneCodeSent: true, codesLockedUntil: until }))).toEqual({
      kind: 'deny',
      refusal: { kind: 'lockedOut', until },
    });
  });

  it('a code sent counts nothing; a wrong phone code is counted on the request', () => {
    expect(decideCheck(SIGN_IN_RULES.ra, 'phoneCode', 'sent')).toEqual({ streaks: 'keep', next: { kind: 'codeSent' } });
    expect(decideCheck(SIGN_IN_RULES.raChallenge, 'phoneCode', 'wrong')).toEqual({ streaks: 'count', next: { kind: 'countOnRequest' } });
  });
});

describe('phone codes', () => {
  it('are six digits with leading zeros', () => {
    expect(newPhoneCode(() => 42)).toBe('000042');
    expect(newPhoneCode((max) => max - 1)).toBe('999999');
  });

  it('show a masked number: the country code and the last two digits', () => {
    expect(maskPhoneNumber('+79991234512')).toBe('+7 ••• •• 12');
    expect(maskPhoneNumber('+442071838750')).toBe('+44 ••• •• 50');
  });

  it('stop at the first limit hit', () => {
    const none = { lastSentToUser: null, sentToUserLastHour: 0, sentByAccountLastDay: 0 };
    const limits = { ...DEFAULT_PHONE_CODE_LIMITS, allowedPrefixes: ['+7'] };
    expect(phoneCodeLimitHit('+79991234512', limits, none, now)).toBeNull();
    expect(phoneCodeLimitHit('+882355551234', limits, none, now)).toBe('destination');
    expect(phoneCodeLimitHit('+79991234512', limits, { ...none, lastSentToUser: new Date(now.getTime() - 10_000) }, now)).toBe('cooldown');
    expect(phoneCodeLimitHit('+79991234512', limits, { ...none, sentToUserLastHour: 5 }, now)).toBe('hourlyCap');
    expect(phoneCodeLimitHit('+79991234512', limits, { ...none, sentByAccountLastDay: 1000 }, now)).toBe('dailyBudget');
  });

  it('the breaker suspends a range whose settled codes are mostly not entered', () => {
    const none = { lastSentToUser: null, sentToUserLastHour: 0, sentByAccountLastDay: 0 };
    const limits = DEFAULT_PHONE_CODE_LIMITS;
    expect(phoneCodeLimitHit('+88235551234', limits, { ...none, range: { settled: 20, entered: 3 } }, now)).toBe('breaker');
    expect(phoneCodeLimitHit('+88235551234', limits, { ...none, range: { settled: 20, entered: 4 } }, now)).toBeNull();
    // too few to judge
    expect(phoneCodeLimitHit('+88235551234', limits, { ...none, range: { settled: 19, entered: 0 } }, now)).toBeNull();
    expect(destinationRange('+79991234512')).toBe('+79991');
  });

  it('take destination prefixes in E.164 form only', () => {
    expect(parseDestinationPrefix('+7')).toBe('+7');
    expect(parseDestinationPrefix('7')).toBeNull();
    expect(parseDestinationPrefix('+0')).toBeNull();
    expect(parseDestinationPrefix('+1234567')).toBeNull();
  });
});

describe('codes sent to a phone from the access page', () => {
  const page = SIGN_IN_RULES.page;

  it('the page sends a code when its user presses "send a code by SMS" or "call me", even with a token or Telegram', () => {
    for (const method of ['sms', 'call'] as const)
      expect(decideSignIn(page, facts({ answer: { kind: 'delivery', method } }))).toEqual({ kind: 'check', factor: 'phoneCode' });
    expect(
      decideSignIn(page, facts({ answer: { kind: 'delivery', method: 'sms' }, factors: { ...phoneOnly, approvals: telegram } })),
    ).toEqual({ kind: 'check', factor: 'phoneCode' });
  });

  it('a user whose only factor is a phone gets the code prompt on a visit, nothing sent by itself', () => {
    expect(decideSignIn(page, facts({ answer: { kind: 'visit' }, factors: phoneOnly }))).toEqual({
      kind: 'wait',
      prompt: { kind: 'enterCode' },
      factor: 'phoneCode',
    });
  });

  it('a code typed on the page before any was sent, by a user without token codes, is a wrong phone code, not a refusal', () => {
    const code = { kind: 'code', code: '123456' } as const;
    expect(decideSignIn(page, facts({ answer: code, phoneCodeSent: false, factors: phoneOnly }))).toEqual({
      kind: 'check',
      factor: 'phoneCode',
    });
    // a user with a token: the token's code
    expect(decideSignIn(page, facts({ answer: code, phoneCodeSent: false }))).toEqual({ kind: 'check', factor: 'code' });
  });

  it('a code the page could not send keeps the request waiting and says why; on ra and ra/challenge it denies', () => {
    const undeliverable = { kind: 'phoneCodeUndeliverable', method: 'sms' } as const;
    const limited = { kind: 'phoneCodeLimited', method: 'call', limit: 'cooldown' } as const;
    expect(decideCheck(page, 'phoneCode', 'refused', undeliverable)).toEqual({
      streaks: 'keep',
      next: { kind: 'wait', prompt: { kind: 'codeNotSent', method: 'sms', reason: 'undeliverable' } },
    });
    expect(decideCheck(page, 'phoneCode', 'refused', limited)).toEqual({
      streaks: 'keep',
      next: { kind: 'wait', prompt: { kind: 'codeNotSent', method: 'call', reason: 'cooldown' } },
    });
    for (const rules of [SIGN_IN_RULES.ra, SIGN_IN_RULES.raChallenge])
      expect(decideCheck(rules, 'phoneCode', 'refused', undeliverable)).toEqual({
        streaks: 'keep',
        next: { kind: 'deny', refusal: undeliverable, failedAttempts: 0 },
      });
  });
});
