import { DomainError } from './domain-error';
import {
  configuredKinds,
  everyFactorDisabled,
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
    expect(parseAuthenticatorKind('mobileapp')).toBe('MobileApp');
    expect(() => parseAuthenticatorKind('yubikey')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('only OTP tokens are registered, moved or copied', () => {
    expect(parseOtpTokenKind('hotptoken')).toBe('HotpToken');
    expect(() => parseOtpTokenKind('telegram')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    expect(() => parseOtpTokenKind('mobileapp')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
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
    expect(configuredKinds(['MobileApp', 'Telegram'], true)).toEqual(['Telegram', 'MobileApp', 'Sms']);
    expect(configuredKinds([], false)).toEqual([]);
  });
});

describe('everyFactorDisabled', () => {
  it('holds only when the user has authenticators, all disabled, and no phone', () => {
    expect(everyFactorDisabled([{ disabled: true }, { disabled: true }], false)).toBe(true);
    expect(everyFactorDisabled([{ disabled: true }, { disabled: false }], false)).toBe(false);
    expect(everyFactorDisabled([{ disabled: true }], true)).toBe(false);
    expect(everyFactorDisabled([], false)).toBe(false);
  });
});
