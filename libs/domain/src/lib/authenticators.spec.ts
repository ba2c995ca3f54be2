import { DomainError } from './domain-error';
import {
  configuredKinds,
  parseAuthenticatorKind,
  parseOtpTokenKind,
  validateAuthenticatorName,
  parseOtpTokenAlgorithm,
  assertOtpTokenAlgorithm,
} from './authenticators';

describe('authenticator kinds', () => {
  it('are read from paths in any case', () => {
    expect(parseAuthenticatorKind('totptoken')).toBe('TotpToken');
    expect(parseAuthenticatorKind('HOTPTOKEN')).toBe('HotpToken');
    expect(parseAuthenticatorKind('telegram')).toBe('Telegram');
    expect(() => parseAuthenticatorKind('yubikey')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('only OTP tokens are registered, moved or copied', () => {
    expect(parseOtpTokenKind('hotptoken')).toBe('HotpToken');
    expect(() => parseOtpTokenKind('telegram')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    expect(() => parseOtpTokenKind('totp')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });

  it('algorithms: SHA1 by default, SHA-2 for HOTP tokens only', () => {
    expect(parseOtpTokenAlgorithm(undefined)).toBe('SHA1');
    expect(parseOtpTokenAlgorithm('sha-256')).toBe('SHA256');
    expect(parseOtpTokenAlgorithm('SHA512')).toBe('SHA512');
    expect(() => parseOtpTokenAlgorithm('MD5')).toThrow(DomainError);
    expect(assertOtpTokenAlgorithm('HotpToken', 'SHA512')).toBe('SHA512');
    expect(assertOtpTokenAlgorithm('TotpToken', 'SHA1')).toBe('SHA1');
    expect(() => assertOtpTokenAlgorithm('TotpToken', 'SHA256')).toThrow(DomainError);
  });

  it('names are non-empty', () => {
    expect(validateAuthenticatorName(' Key fob ')).toBe('Key fob');
    expect(() => validateAuthenticatorName('')).toThrow(DomainError);
  });

  it('a user lists the kinds configured, phones counting as Sms', () => {
    expect(configuredKinds(['HotpToken', 'Totp', 'Totp'], false)).toEqual(['Totp', 'HotpToken']);
    expect(configuredKinds([], true)).toEqual(['Sms']);
    expect(configuredKinds([], false)).toEqual([]);
  });
});
