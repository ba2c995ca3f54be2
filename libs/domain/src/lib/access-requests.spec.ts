import {
  accessTokenClaims,
  effectiveAccessStatus,
  validateAccessLanguage,
  validateAccessRequest,
  validateCallback,
  validateClaims,
  validatePassCodeRequest,
} from './access-requests';
import { ValidationFailed } from './domain-error';

describe('access requests', () => {
  it('reads the body with keys in any case and applies the defaults', () => {
    expect(validateAccessRequest({ Identity: ' ann ', EMAIL: 'ann@example.test', Callback: { Action: 'https://app.example/cb', TARGET: '_top' } })).toEqual({
      identity: 'ann',
      email: 'ann@example.test',
      phone: null,
      language: 'ru',
      claims: {},
      callback: { action: 'https://app.example/cb', target: '_top' },
    });
    expect(validateAccessRequest({ identity: 'bob', language: 'EN', claims: { role: 'x' } })).toMatchObject({ language: 'en', claims: { role: 'x' }, callback: null });
  });

  it('refuses a missing or empty identity, a bad e-mail, an unknown language', () => {
    expect(() => validateAccessRequest({})).toThrow(ValidationFailed);
    expect(() => validateAccessRequest({ identity: '  ' })).toThrow(ValidationFailed);
    expect(() => validateAccessRequest({ identity: 'a', email: 'nope' })).toThrow(ValidationFailed);
    expect(() => validateAccessLanguage('de')).toThrow(ValidationFailed);
    expect(() => validateAccessRequest([])).toThrow(ValidationFailed);
  });

  it('takes only absolute http(s) callbacks with a known target', () => {
    expect(validateCallback({ action: 'http://localhost:8080/cb' })).toEqual({ action: 'http://localhost:8080/cb', target: '_self' });
    expect(validateCallback({ action: 'https://[::1]:8443/cb?a=b' })).toEqual({ action: 'https://[::1]:8443/cb?a=b', target: '_self' });
    expect(validateCallback({ action: 'https://пример.рф/cb' })?.action).toBe('https://xn--e1afmkfd.xn--p1ai/cb');
    for (const action of ['/relative', 'javascript:alert(1)', 'ftp://x.example/', 'https://user:pw@x.example/', 'https://a;b.example/', 'https://a_b.example/', '', 42]) {
      expect(() => validateCallback({ action })).toThrow(ValidationFailed);
    }
    expect(() => validateCallback({ action: 'https://x.example/', target: '_blank' })).toThrow(ValidationFailed);
    expect(() => validateCallback('https://x.example/')).toThrow(ValidationFailed);
  });

  it('takes claims as a JSON object only', () => {
    expect(validateClaims(undefined)).toEqual({});
    expect(() => validateClaims([1])).toThrow(ValidationFailed);
    expect(() => validateClaims('x')).toThrow(ValidationFailed);
    expect(() => validateClaims({ big: 'x'.repeat(9000) })).toThrow(ValidationFailed);
  });

  it('reads a pass code request', () => {
    expect(validatePassCodeRequest({ IDENTITY: 'ann', PassCode: '123456' })).toEqual({ identity: 'ann', passCode: '123456' });
    expect(() => validatePassCodeRequest({ identity: 'ann' })).toThrow(ValidationFailed);
    expect(() => validatePassCodeRequest({ identity: 'ann', passCode: 123456 })).toThrow(ValidationFailed);
  });

  it('expires an awaiting request 15 minutes after its creation, not a decided one', () => {
    const createdAt = new Date('2026-05-20T10:00:00Z');
    const at = (minutes: number, seconds = 0) => new Date(createdAt.getTime() + minutes * 60_000 + seconds * 1000);
    expect(effectiveAccessStatus({ status: 'AwaitingAuthentication', createdAt }, at(14, 59))).toBe('AwaitingAuthentication');
    expect(effectiveAccessStatus({ status: 'AwaitingAuthentication', createdAt }, at(15))).toBe('Expired');
    expect(effectiveAccessStatus({ status: 'Granted', createdAt }, at(60))).toBe('Granted');
  });

  it('puts the service claims over the client claims', () => {
    const payload = accessTokenClaims({ iss: 'evil', sub: 'root', exp: 9e12, nbf: 9e12, role: 'admin' }, { iss: 'https://2f.example', aud: 'key', sub: 'ann', jti: 'id', iat: 1000 });
    expect(payload).toEqual({ role: 'admin', iss: 'https://2f.example', aud: 'key', sub: 'ann', jti: 'id', iat: 1000, exp: 4600 });
  });
});
