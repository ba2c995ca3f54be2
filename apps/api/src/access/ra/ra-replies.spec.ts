import { ACCESS_LANGUAGES, DELIVERY_METHODS } from '@twofold/domain';
import { RaReply, raRefusalMessage, raReplyText, USER_NOT_REGISTERED } from './ra-replies';

/** The VPN shows replyMessage as the RADIUS Reply-Message: at most 253 bytes, in the request's language. */
describe('ra replies', () => {
  const methods = Object.values(DELIVERY_METHODS);
  const every: RaReply[] = [
    { kind: 'granted' },
    { kind: 'enterCode' },
    { kind: 'wrongCodeRetry', attemptsLeft: 4 },
    { kind: 'wrongCode' },
    { kind: 'codeAlreadyUsed' },
    { kind: 'codeAlreadyUsedRetry' },
    { kind: 'lockedOut', minutes: 60 },
    { kind: 'unknownUser' },
    { kind: 'locked' },
    { kind: 'noSecondFactor' },
    { kind: 'unusableSecondFactor' },
    { kind: 'secondFactorDisabled' },
    { kind: 'networkDenied' },
    ...methods.map((method) => ({ kind: 'deliveryUnavailable', method }) as const),
    ...methods.map((method) => ({ kind: 'deliveryUnavailableRetry', method }) as const),
    { kind: 'requestNotValid' },
    { kind: 'expired' },
    { kind: 'badRequest' },
  ];

  it.each(ACCESS_LANGUAGES)('fits a RADIUS Reply-Message in %s (253 bytes of UTF-8)', (language) => {
    for (const reply of every)
      expect({ reply, bytes: Buffer.byteLength(raReplyText(reply, language), 'utf8') <= 253 }).toEqual({ reply, bytes: true });
  });

  it('speaks Russian and English', () => {
    expect(raReplyText({ kind: 'enterCode' }, 'ru')).toMatch(/[а-я]/);
    expect(raReplyText({ kind: 'enterCode' }, 'en')).toBe('Enter the code from your authenticator app or token.');
  });

  it('answers an unknown identity with the message clients match on', () => {
    expect(raRefusalMessage({ kind: 'unknownUser' })).toBe(USER_NOT_REGISTERED);
    expect(USER_NOT_REGISTERED).toBe('UserNotRegistered');
    expect(raRefusalMessage({ kind: 'locked' })).toBe('Access denied: the user is locked.');
  });
});
