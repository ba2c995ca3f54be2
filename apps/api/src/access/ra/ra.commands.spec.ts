import { ValidationFailed } from '@twofold/domain';
import { parseRaChallenge, parseRaRequest, raIdentityOf, raLanguageOf } from './ra.commands';

describe("the ra family's bodies", () => {
  it('reads a RADIUS adapter body as it is sent: camelCase, nulls, unknown fields', () => {
    const body = {
      identity: 'CORP\\jane',
      name: null,
      email: null,
      phone: null,
      passCode: null,
      callingStationId: '192.0.2.7',
      calledStationId: 'vpn-gw',
      capabilities: { inlineEnroll: true },
      groupPolicyPreset: { signUpGroups: '' },
    };
    expect(parseRaRequest(body)).toEqual({ identity: 'CORP\\jane', passCodeIntent: { kind: 'none' }, language: 'ru', userIp: '192.0.2.7' });
  });

  it('matches keys in any case and prefers `ip` over a calling station that is an address', () => {
    expect(
      parseRaRequest({ Identity: 'ann', Ip: '2001:db8::1', CallingStationId: '192.0.2.7', PassCode: '123 456', Language: 'en-US' }),
    ).toEqual({
      identity: 'ann',
      passCodeIntent: { kind: 'code', code: '123456' },
      language: 'en',
      userIp: '2001:db8::1',
    });
    // a calling station id is often a MAC address or a phone number: not the user's IP
    expect(parseRaRequest({ identity: 'ann', callingStationId: '00-11-22-33-44-55' }).userIp).toBeNull();
  });

  it('reads a challenge; a request id that is not one is null, never an error', () => {
    expect(parseRaChallenge({ Identity: 'ann', Challenge: '654321', RequestId: '6F1C0E2A-7D3B-4A4E-9A59-0D0F4A3C2B1E' })).toEqual({
      identity: 'ann',
      challenge: { kind: 'code', code: '654321' },
      requestId: '6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e',
      language: 'ru',
    });
    expect(parseRaChallenge({ identity: 'ann', challenge: '1', requestId: 'state-123' }).requestId).toBeNull();
    expect(parseRaChallenge({ identity: 'ann', challenge: '1' }).requestId).toBeNull();
    expect(() => parseRaChallenge({ challenge: '1' })).toThrow(ValidationFailed);
    expect(() => parseRaChallenge('x')).toThrow(ValidationFailed);
  });

  it('reads the language and identity of a body it may refuse', () => {
    expect(raLanguageOf({ LANGUAGE: 'en' })).toBe('en');
    expect(raLanguageOf('nonsense')).toBe('ru');
    expect(raIdentityOf({ Identity: ' ann ' })).toBe('ann');
    expect(raIdentityOf({ identity: 42 })).toBeNull();
    expect(raIdentityOf([])).toBeNull();
  });
});
