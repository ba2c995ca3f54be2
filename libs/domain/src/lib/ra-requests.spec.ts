import { ValidationFailed } from './domain-error';
import { parsePassCode, raSuccess } from './ra-requests';

describe('the ra family', () => {
  it('tells the first step, a delivery letter and a code apart', () => {
    expect(parsePassCode(undefined, 'PassCode')).toEqual({ kind: 'none' });
    expect(parsePassCode(null, 'PassCode')).toEqual({ kind: 'none' });
    expect(parsePassCode('  ', 'PassCode')).toEqual({ kind: 'none' });
    expect(parsePassCode('m', 'PassCode')).toEqual({ kind: 'delivery', method: 'push' });
    expect(parsePassCode('T', 'PassCode')).toEqual({ kind: 'delivery', method: 'telegram' });
    expect(parsePassCode('s', 'PassCode')).toEqual({ kind: 'delivery', method: 'sms' });
    expect(parsePassCode('c', 'PassCode')).toEqual({ kind: 'delivery', method: 'call' });
    expect(parsePassCode('x', 'PassCode')).toEqual({ kind: 'code', code: 'x' });
    expect(parsePassCode('123456', 'PassCode')).toEqual({ kind: 'code', code: '123456' });
    expect(() => parsePassCode(123456, 'PassCode')).toThrow(ValidationFailed);
    expect(() => parsePassCode('1'.repeat(65), 'PassCode')).toThrow(ValidationFailed);
  });

  it('success is true exactly for Granted and AwaitingAuthentication', () => {
    expect(raSuccess('Granted')).toBe(true);
    expect(raSuccess('AwaitingAuthentication')).toBe(true);
    expect(raSuccess('Denied')).toBe(false);
  });
});
