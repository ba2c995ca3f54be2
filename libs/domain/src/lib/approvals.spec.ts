import {
  ApprovalFactor,
  approvalFatigue,
  approvalOptions,
  approvalOutcomeOf,
  ApprovalState,
  canSettleWithoutAnswer,
  channelShowsNumber,
  chooseApprovalFactor,
  judgeApprovalChoice,
  MAX_PENDING_APPROVALS_PER_USER,
  newNumberChallenge,
  planSecondFactor,
  SecondFactorPlanInput,
  usableApprovalFactors,
} from './approvals';
import { PassCodeIntent } from './ra-requests';

const NOW = new Date('2026-05-20T10:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

/** A RandomInt that replays `values` (each taken modulo the bound asked). */
function sequence(...values: number[]) {
  let i = 0;
  return (max: number) => values[i++ % values.length] % max;
}

describe('number matching', () => {
  it('offers three distinct two-digit choices, one of them the number shown on the screen', () => {
    for (let seed = 0; seed < 200; seed++) {
      const challenge = newNumberChallenge(sequence(seed * 7, seed * 13 + 5, seed, seed * 3 + 1, seed * 11));
      expect(challenge.number).toBeGreaterThanOrEqual(10);
      expect(challenge.number).toBeLessThanOrEqual(99);
      expect(challenge.choices).toHaveLength(3);
      expect(new Set(challenge.choices).size).toBe(3);
      expect(challenge.choices).toContain(challenge.number);
      for (const choice of challenge.choices) expect(choice).toBeGreaterThanOrEqual(10);
      for (const choice of challenge.choices) expect(choice).toBeLessThanOrEqual(99);
    }
  });

  it('draws a decoy again when it equals a choice already taken', () => {
    // number 10+5=15, decoy 15 again (refused), then 16 and 17; the shuffle leaves the order (j = i)
    const challenge = newNumberChallenge(sequence(5, 5, 6, 7, 2, 1));
    expect(challenge.number).toBe(15);
    expect([...challenge.choices].sort()).toEqual([15, 16, 17]);
  });

  it('puts the right number anywhere among the choices', () => {
    const places = new Set<number>();
    for (let seed = 0; seed < 50; seed++) {
      const challenge = newNumberChallenge(sequence(seed, seed + 20, seed + 40, seed * 5, seed * 7));
      places.add(challenge.choices.indexOf(challenge.number));
    }
    expect(places).toEqual(new Set([0, 1, 2]));
  });

  it('is shown only where the sign-in has a screen', () => {
    expect(channelShowsNumber('page')).toBe(true);
    for (const channel of ['ra', 'md', 'la'] as const) expect(channelShowsNumber(channel)).toBe(false);
  });
});

describe('answers to an approval', () => {
  const pending = (over: Partial<ApprovalState> = {}): ApprovalState => ({
    status: 'Pending',
    expiresAt: minutes(1),
    number: null,
    choices: null,
    ...over,
  });
  const numbered = (over: Partial<ApprovalState> = {}) => pending({ number: 42, choices: [17, 42, 88], ...over });

  it('approve and "it wasn\'t me" without a number', () => {
    expect(approvalOptions(pending())).toEqual([{ kind: 'approve' }, { kind: 'notMe' }]);
    expect(judgeApprovalChoice(pending(), { kind: 'approve' }, NOW)).toEqual({ outcome: 'decide', status: 'Approved' });
    expect(judgeApprovalChoice(pending(), { kind: 'notMe' }, NOW)).toEqual({ outcome: 'decide', status: 'Rejected', reason: 'notMe' });
  });

  it('with a number: the right one approves, another offered one rejects, "it wasn\'t me" rejects', () => {
    expect(approvalOptions(numbered())).toEqual([
      { kind: 'number', number: 17 },
      { kind: 'number', number: 42 },
      { kind: 'number', number: 88 },
      { kind: 'notMe' },
    ]);
    expect(judgeApprovalChoice(numbered(), { kind: 'number', number: 42 }, NOW)).toEqual({ outcome: 'decide', status: 'Approved' });
    expect(judgeApprovalChoice(numbered(), { kind: 'number', number: 88 }, NOW)).toEqual({
      outcome: 'decide',
      status: 'Rejected',
      reason: 'wrongNumber',
    });
    expect(judgeApprovalChoice(numbered(), { kind: 'notMe' }, NOW)).toEqual({ outcome: 'decide', status: 'Rejected', reason: 'notMe' });
  });

  it('an answer that was not offered decides nothing: approve where a number must be picked, a number not shown, a number without one', () => {
    expect(judgeApprovalChoice(numbered(), { kind: 'approve' }, NOW)).toEqual({ outcome: 'ignore', why: 'notOffered' });
    expect(judgeApprovalChoice(numbered(), { kind: 'number', number: 43 }, NOW)).toEqual({ outcome: 'ignore', why: 'notOffered' });
    expect(judgeApprovalChoice(pending(), { kind: 'number', number: 42 }, NOW)).toEqual({ outcome: 'ignore', why: 'notOffered' });
  });

  it('is decided once: every answer to a decided approval changes nothing', () => {
    for (const status of ['Approved', 'Rejected', 'Expired', 'Cancelled', 'Undeliverable'] as const) {
      expect(judgeApprovalChoice(pending({ status }), { kind: 'approve' }, NOW)).toEqual({ outcome: 'ignore', why: 'decided' });
      expect(judgeApprovalChoice(numbered({ status }), { kind: 'number', number: 42 }, NOW)).toEqual({ outcome: 'ignore', why: 'decided' });
      expect(canSettleWithoutAnswer(status)).toBe(false);
    }
    expect(canSettleWithoutAnswer('Pending')).toBe(true);
  });

  it('a late answer (at or after the expiry) changes nothing', () => {
    expect(judgeApprovalChoice(pending({ expiresAt: NOW }), { kind: 'approve' }, NOW)).toEqual({ outcome: 'ignore', why: 'expired' });
    expect(judgeApprovalChoice(pending({ expiresAt: new Date(NOW.getTime() + 1) }), { kind: 'approve' }, NOW).outcome).toBe('decide');
  });

  it('each final status has its outcome for the waiting call', () => {
    expect(approvalOutcomeOf('Approved')).toBe('approved');
    expect(approvalOutcomeOf('Rejected')).toBe('rejected');
    expect(approvalOutcomeOf('Expired')).toBe('expired');
    expect(approvalOutcomeOf('Cancelled')).toBe('cancelled');
    expect(approvalOutcomeOf('Undeliverable')).toBe('undeliverable');
  });
});

describe('push fatigue', () => {
  it('at most three approvals pending per user', () => {
    expect(MAX_PENDING_APPROVALS_PER_USER).toBe(3);
    expect(approvalFatigue({ pending: 2, notMeAt: [], now: NOW })).toEqual({ allowed: true });
    expect(approvalFatigue({ pending: 3, notMeAt: [], now: NOW })).toEqual({ allowed: false, reason: 'tooManyPending' });
  });

  it('one "it wasn\'t me" is no reason to stop asking', () => {
    expect(approvalFatigue({ pending: 0, notMeAt: [minutes(-1)], now: NOW })).toEqual({ allowed: true });
  });

  it('two "it wasn\'t me" within an hour: no approval request for 15 minutes after the second', () => {
    const notMeAt = [minutes(-50), minutes(-5)];
    expect(approvalFatigue({ pending: 0, notMeAt, now: NOW })).toEqual({ allowed: false, reason: 'cooldown', until: minutes(10) });
    expect(approvalFatigue({ pending: 0, notMeAt, now: minutes(9) }).allowed).toBe(false);
    expect(approvalFatigue({ pending: 0, notMeAt, now: minutes(10) })).toEqual({ allowed: true });
  });

  it('two "it wasn\'t me" more than an hour apart stop nothing', () => {
    expect(approvalFatigue({ pending: 0, notMeAt: [minutes(-61), minutes(-0.5)], now: NOW })).toEqual({ allowed: true });
  });

  it('the cooldown holds whatever their order, and a later pair extends it', () => {
    expect(approvalFatigue({ pending: 0, notMeAt: [minutes(-1), minutes(-30)], now: NOW })).toEqual({
      allowed: false,
      reason: 'cooldown',
      until: minutes(14),
    });
    expect(approvalFatigue({ pending: 0, notMeAt: [minutes(-40), minutes(-30), minutes(-2)], now: NOW })).toEqual({
      allowed: false,
      reason: 'cooldown',
      until: minutes(13),
    });
  });
});

describe('choosing the approval factor', () => {
  const telegram: ApprovalFactor = { id: 'tg-1', kind: 'Telegram', createdAt: minutes(-100) };
  const telegramLater: ApprovalFactor = { id: 'tg-2', kind: 'Telegram', createdAt: minutes(-10) };
  const app: ApprovalFactor = { id: 'app-1', kind: 'MobileApp', createdAt: minutes(-5) };

  it('MobileApp before Telegram, unless the user chose otherwise', () => {
    expect(chooseApprovalFactor([telegram, app])).toBe(app);
    expect(chooseApprovalFactor([telegram, app], { preferred: 'Telegram' })).toBe(telegram);
    expect(chooseApprovalFactor([telegram])).toBe(telegram);
    expect(chooseApprovalFactor([])).toBeNull();
  });

  it('the kind the call asked for comes first when the user has it', () => {
    expect(chooseApprovalFactor([telegram, app], { asked: 'Telegram' })).toBe(telegram);
    expect(chooseApprovalFactor([telegram], { asked: 'MobileApp' })).toBe(telegram);
  });

  it('the oldest of one kind', () => {
    expect(chooseApprovalFactor([telegramLater, telegram])).toBe(telegram);
  });

  it('only enabled factors of a kind whose transport is configured can be asked', () => {
    const authenticators = [
      { id: 'a', kind: 'Telegram', disabled: false, createdAt: NOW },
      { id: 'b', kind: 'Telegram', disabled: true, createdAt: NOW },
      { id: 'c', kind: 'MobileApp', disabled: false, createdAt: NOW },
      { id: 'd', kind: 'Totp', disabled: false, createdAt: NOW },
    ];
    expect(usableApprovalFactors(authenticators, new Set(['Telegram'] as const)).map((f) => f.id)).toEqual(['a']);
    expect(usableApprovalFactors(authenticators, new Set(['Telegram', 'MobileApp'] as const)).map((f) => f.id)).toEqual(['a', 'c']);
    expect(usableApprovalFactors(authenticators, new Set())).toEqual([]);
  });
});

describe('which second factor a call uses', () => {
  const telegram: ApprovalFactor = { id: 'tg', kind: 'Telegram', createdAt: minutes(-100) };
  const app: ApprovalFactor = { id: 'app', kind: 'MobileApp', createdAt: minutes(-5) };
  const none: PassCodeIntent = { kind: 'none' };
  const code: PassCodeIntent = { kind: 'code', code: '123456' };
  const letter = (method: 'telegram' | 'push' | 'sms' | 'call'): PassCodeIntent => ({ kind: 'delivery', method });
  const plan = (input: Partial<SecondFactorPlanInput> & Pick<SecondFactorPlanInput, 'call'>) =>
    planSecondFactor({ intent: none, hasCodeFactor: false, approvalFactors: [], ...input });

  describe('la (the LDAP adapter: never a code)', () => {
    it('asks the approval factor, without a number', () => {
      expect(plan({ call: 'la', approvalFactors: [telegram], hasCodeFactor: true })).toEqual({
        step: 'approval',
        factor: telegram,
        withNumber: false,
      });
      expect(plan({ call: 'la', approvalFactors: [telegram, app] })).toMatchObject({ factor: app });
    });

    it('denies a user without an approval factor, whatever code factors they have', () => {
      expect(plan({ call: 'la', hasCodeFactor: true })).toEqual({ step: 'deny', reason: 'noApprovalFactor' });
      expect(plan({ call: 'la' })).toEqual({ step: 'deny', reason: 'noApprovalFactor' });
    });
  });

  describe('the access page', () => {
    it('asks for an approval with the number when the user has an approval factor, else for a code', () => {
      expect(plan({ call: 'page', approvalFactors: [telegram], hasCodeFactor: true })).toEqual({
        step: 'approval',
        factor: telegram,
        withNumber: true,
      });
      expect(plan({ call: 'page', hasCodeFactor: true })).toEqual({ step: 'codePrompt', unavailable: null });
    });
  });

  describe('ra', () => {
    it('checks a code; a code for a user with approval factors only is refused', () => {
      expect(plan({ call: 'ra', intent: code, hasCodeFactor: true, approvalFactors: [telegram] })).toEqual({
        step: 'checkCode',
        code: '123456',
      });
      expect(plan({ call: 'ra', intent: code, approvalFactors: [telegram] })).toEqual({ step: 'deny', reason: 'noCodeFactor' });
    });

    it('passCode null: the code prompt for a user with a code factor (as always), an approval for an approval-only user', () => {
      expect(plan({ call: 'ra', hasCodeFactor: true, approvalFactors: [telegram] })).toEqual({ step: 'codePrompt', unavailable: null });
      expect(plan({ call: 'ra', approvalFactors: [telegram] })).toEqual({ step: 'approval', factor: telegram, withNumber: false });
    });

    it('t and m ask that factor when the user has it', () => {
      expect(plan({ call: 'ra', intent: letter('telegram'), approvalFactors: [telegram, app], hasCodeFactor: true })).toMatchObject({
        step: 'approval',
        factor: telegram,
      });
      expect(plan({ call: 'ra', intent: letter('push'), approvalFactors: [telegram, app] })).toMatchObject({ factor: app });
    });

    it('a letter Twofold cannot serve falls back to the approval factor, else the code prompt', () => {
      expect(plan({ call: 'ra', intent: letter('push'), approvalFactors: [telegram] })).toMatchObject({
        step: 'approval',
        factor: telegram,
      });
      expect(plan({ call: 'ra', intent: letter('sms'), approvalFactors: [telegram], hasCodeFactor: true })).toMatchObject({
        step: 'approval',
        factor: telegram,
      });
      expect(plan({ call: 'ra', intent: letter('telegram'), hasCodeFactor: true })).toEqual({
        step: 'codePrompt',
        unavailable: 'telegram',
      });
      expect(plan({ call: 'ra', intent: letter('call'), hasCodeFactor: true })).toEqual({ step: 'codePrompt', unavailable: 'call' });
    });

    it('denies only a user with no usable factor at all', () => {
      for (const intent of [none, code, letter('telegram'), letter('push'), letter('sms')]) {
        expect(plan({ call: 'ra', intent })).toEqual({ step: 'deny', reason: 'noUsableFactor' });
        expect(plan({ call: 'md', intent })).toEqual({ step: 'deny', reason: 'noUsableFactor' });
      }
    });
  });

  describe('md (one call: it cannot ask for a code afterwards)', () => {
    it('m for a user with code factors only is denied, telling to append the code to the password', () => {
      expect(plan({ call: 'md', intent: letter('push'), hasCodeFactor: true })).toEqual({ step: 'deny', reason: 'appendCodeToPassword' });
      expect(plan({ call: 'md', intent: letter('telegram'), hasCodeFactor: true })).toEqual({
        step: 'deny',
        reason: 'appendCodeToPassword',
      });
    });

    it('m asks the approval factor (any kind) when the user has one; a code is checked as on ra', () => {
      expect(plan({ call: 'md', intent: letter('push'), approvalFactors: [telegram], hasCodeFactor: true })).toEqual({
        step: 'approval',
        factor: telegram,
        withNumber: false,
      });
      expect(plan({ call: 'md', intent: code, hasCodeFactor: true })).toEqual({ step: 'checkCode', code: '123456' });
    });
  });

  describe('ra/challenge (m or t typed at the VPN prompt)', () => {
    it('asks the approval factor; without one the request keeps waiting for a code, saying the delivery is unavailable', () => {
      expect(plan({ call: 'challenge', intent: letter('telegram'), approvalFactors: [telegram], hasCodeFactor: true })).toEqual({
        step: 'approval',
        factor: telegram,
        withNumber: false,
      });
      expect(plan({ call: 'challenge', intent: letter('push'), hasCodeFactor: true })).toEqual({ step: 'codePrompt', unavailable: 'push' });
      expect(plan({ call: 'challenge', intent: code, hasCodeFactor: true })).toEqual({ step: 'checkCode', code: '123456' });
    });
  });

  it("the user's choice of kind decides between two approval factors", () => {
    expect(plan({ call: 'ra', approvalFactors: [telegram, app], preferred: 'Telegram' })).toMatchObject({ factor: telegram });
    expect(plan({ call: 'ra', approvalFactors: [telegram, app] })).toMatchObject({ factor: app });
  });
});
