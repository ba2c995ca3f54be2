import {
  accessPageFrameAncestors,
  accessTokenClaims,
  effectiveAccessStatus,
  isCallbackForFrame,
  isPostMessageCallback,
  accessLanguageOf,
  parseSignUpGroups,
  validateAccessRequest,
  validateCallback,
  validateClaims,
} from './access-requests';
import { ValidationFailed } from './domain-error';

describe('access requests', () => {
  it('reads the body with keys in any case and applies the defaults', () => {
    expect(
      validateAccessRequest({
        Identity: ' ann ',
        EMAIL: 'ann@example.test',
        Callback: { Action: 'https://app.example/cb', TARGET: '_top' },
      }),
    ).toEqual({
      identity: 'ann',
      email: 'ann@example.test',
      phone: null,
      language: 'ru',
      claims: {},
      callback: { action: 'https://app.example/cb', target: '_top' },
      signUpGroups: [],
    });
    expect(validateAccessRequest({ identity: 'bob', language: 'EN', claims: { role: 'x' } })).toMatchObject({
      language: 'en',
      claims: { role: 'x' },
      callback: null,
    });
  });

  it('refuses a missing or empty identity and a body that is not an object', () => {
    expect(() => validateAccessRequest({})).toThrow(ValidationFailed);
    expect(() => validateAccessRequest({ identity: '  ' })).toThrow(ValidationFailed);
    expect(() => validateAccessRequest([])).toThrow(ValidationFailed);
  });

  it('reads what existing clients send leniently', () => {
    // a directory's odd e-mail or phone is ignored, not a refusal of its user's sign-in
    expect(validateAccessRequest({ identity: 'a', email: 'nope', phone: 'x'.repeat(40) })).toMatchObject({ email: null, phone: null });
    expect(
      validateAccessRequest({
        identity: 'a',
        email: null,
        phone: null,
        language: null,
        claims: null,
        callback: null,
        groupPolicyPreset: null,
      }),
    ).toMatchObject({
      email: null,
      phone: null,
      language: 'ru',
      claims: {},
      callback: null,
      signUpGroups: [],
    });
    // unknown fields are ignored; identities keep `\`, `@` and inner spaces
    expect(
      validateAccessRequest({
        identity: 'CORP\\Jane Doe',
        callingStationId: '10.0.0.1',
        capabilities: { inlineEnroll: true },
        userPhone: '+1',
        name: 'Jane',
      }),
    ).toMatchObject({ identity: 'CORP\\Jane Doe' });
    expect(validateAccessRequest({ identity: 'jane@corp.example' }).identity).toBe('jane@corp.example');
  });

  it('takes any language: en… is English, anything else Russian', () => {
    for (const english of ['en', 'EN', 'en-US', 'en_GB', ' en ']) expect(accessLanguageOf(english)).toBe('en');
    for (const other of ['ru', 'ru-RU', 'de', 'eng', 'english', '', 'zz-top', undefined, null, 7, {}])
      expect(accessLanguageOf(other)).toBe('ru');
    expect(validateAccessRequest({ identity: 'a', Language: 'en-US' }).language).toBe('en');
  });

  it('reads groupPolicyPreset.signUpGroups as names separated by ";"', () => {
    expect(parseSignUpGroups({ signUpGroups: ' VPN Users ; Staff;;staff; ' })).toEqual(['VPN Users', 'Staff']);
    expect(parseSignUpGroups({ SignUpGroups: '' })).toEqual([]);
    expect(parseSignUpGroups({})).toEqual([]);
    expect(parseSignUpGroups(null)).toEqual([]);
    expect(parseSignUpGroups({ signUpGroups: ['VPN'] })).toEqual([]);
    expect(parseSignUpGroups({ signUpGroups: `ok;${'x'.repeat(101)}` })).toEqual(['ok']);
    expect(validateAccessRequest({ identity: 'a', GroupPolicyPreset: { SignUpGroups: 'A;B' } }).signUpGroups).toEqual(['A', 'B']);
  });

  it('takes only absolute http(s) callbacks with a known target', () => {
    expect(validateCallback({ action: 'http://localhost:8080/cb' })).toEqual({ action: 'http://localhost:8080/cb', target: '_self' });
    expect(validateCallback({ action: 'https://[::1]:8443/cb?a=b' })).toEqual({ action: 'https://[::1]:8443/cb?a=b', target: '_self' });
    expect(validateCallback({ action: 'https://пример.рф/cb' })?.action).toBe('https://xn--e1afmkfd.xn--p1ai/cb');
    for (const action of [
      '/relative',
      'javascript:alert(1)',
      'ftp://x.example/',
      'https://user:pw@x.example/',
      'https://a;b.example/',
      'https://a_b.example/',
      '',
      42,
    ]) {
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

  it('expires an awaiting request 15 minutes after its creation, not a decided one', () => {
    const createdAt = new Date('2026-05-20T10:00:00Z');
    const at = (minutes: number, seconds = 0) => new Date(createdAt.getTime() + minutes * 60_000 + seconds * 1000);
    expect(effectiveAccessStatus({ status: 'AwaitingAuthentication', createdAt }, at(14, 59))).toBe('AwaitingAuthentication');
    expect(effectiveAccessStatus({ status: 'AwaitingAuthentication', createdAt }, at(15))).toBe('Expired');
    expect(effectiveAccessStatus({ status: 'Granted', createdAt }, at(60))).toBe('Granted');
  });

  it('puts the service claims over the client claims', () => {
    const payload = accessTokenClaims(
      { iss: 'evil', sub: 'root', exp: 9e12, nbf: 9e12, role: 'admin' },
      { iss: 'https://2f.example', aud: 'key', sub: 'ann', jti: 'id', iat: 1000 },
    );
    expect(payload).toEqual({ role: 'admin', iss: 'https://2f.example', aud: 'key', sub: 'ann', jti: 'id', iat: 1000, exp: 4600 });
  });
});

describe('postMessage callbacks and framed pages', () => {
  // what the AD FS adapter and the Keycloak authenticator send, character for character
  const ADFS = "javascript:window.parent.postMessage($`AccessToken`,'*')";

  it('accepts the postMessage action in the shapes the contract regex allows, stored as sent (trimmed)', () => {
    const accepted = [
      ADFS,
      'javascript:window.parent.postMessage($`AccessToken`,"*")',
      "javascript:window.parent.postMessage($`AccessToken`,'*');",
      "javascript: window.parent.postMessage( $`AccessToken` , '*' ) ;",
      "javascript:\twindow.parent.postMessage(\n$`AccessToken`,'*')",
      // the scheme in any case: browsers read `JavaScript:` as `javascript:` (RFC 3986 schemes are case-insensitive)
      "JAVASCRIPT:window.parent.postMessage($`AccessToken`,'*')",
      "JavaScript:window.parent.postMessage($`AccessToken`,'*')",
    ];
    for (const action of accepted) {
      expect(isPostMessageCallback(action)).toBe(true);
      expect(validateCallback({ action: `  ${action}  `, target: '_self' })).toEqual({ action, target: '_self' });
    }
    expect(validateAccessRequest({ Identity: 'ann', Callback: { Action: ADFS, Target: '_self' } }).callback).toEqual({
      action: ADFS,
      target: '_self',
    });
  });

  it('refuses every near miss: another call, another target origin, extra statements, other schemes', () => {
    const refused = [
      // another function, object or argument
      "javascript:window.parent.postMessage(document.cookie,'*')",
      "javascript:window.top.postMessage($`AccessToken`,'*')",
      "javascript:parent.postMessage($`AccessToken`,'*')",
      "javascript:window.opener.postMessage($`AccessToken`,'*')",
      "javascript:window.parent.postMessage($`accessToken`,'*')",
      "javascript:window.parent.postMessage(`AccessToken`,'*')",
      "javascript:window.parent.postMessage($'AccessToken','*')",
      'javascript:window.parent.postMessage($`AccessToken`)',
      'javascript:alert(1)',
      // JavaScript itself is case-sensitive: only the scheme may change case
      "javascript:Window.Parent.PostMessage($`AccessToken`,'*')",
      "JAVASCRIPT:WINDOW.PARENT.POSTMESSAGE($`ACCESSTOKEN`,'*')",
      // another target origin, or mismatched quotes
      "javascript:window.parent.postMessage($`AccessToken`,'https://evil.example')",
      'javascript:window.parent.postMessage($`AccessToken`,\'*")',
      'javascript:window.parent.postMessage($`AccessToken`,`*`)',
      "javascript:window.parent.postMessage($`AccessToken`,'**')",
      // extra statements before or after, comments, a second call
      "javascript:window.parent.postMessage($`AccessToken`,'*');alert(1)",
      "javascript:alert(1);window.parent.postMessage($`AccessToken`,'*')",
      "javascript:window.parent.postMessage($`AccessToken`,'*');;",
      "javascript:window.parent.postMessage($`AccessToken`,'*')//",
      "javascript:window.parent.postMessage($`AccessToken`,'*')\nalert(1)",
      "javascript:window.parent.postMessage($`AccessToken`,'*');window.parent.postMessage($`AccessToken`,'*')",
      // the scheme spelled in ways the contract regex does not allow, or another scheme
      "java script:window.parent.postMessage($`AccessToken`,'*')",
      " javascript :window.parent.postMessage($`AccessToken`,'*')",
      "vbscript:window.parent.postMessage($`AccessToken`,'*')",
      "data:text/html,<script>window.parent.postMessage($`AccessToken`,'*')</script>",
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'blob:https://app.example/0b6f0f1c-0000-4000-8000-000000000000',
      'file:///etc/passwd',
    ];
    for (const action of refused) {
      expect(isPostMessageCallback(action)).toBe(false);
      expect(() => validateCallback({ action, target: '_self' })).toThrow(ValidationFailed);
    }
  });

  it('tells which requests are meant for a frame', () => {
    expect(isCallbackForFrame({ action: ADFS, target: '_self' })).toBe(true);
    expect(isCallbackForFrame({ action: 'https://app.example/cb', target: '_parent' })).toBe(true);
    expect(isCallbackForFrame({ action: 'https://app.example/cb', target: '_top' })).toBe(true);
    expect(isCallbackForFrame({ action: 'https://app.example/cb', target: '_self' })).toBe(false);
    expect(isCallbackForFrame({ action: null, target: null })).toBe(false);
    expect(isCallbackForFrame(null)).toBe(false);
  });

  it('lets a request meant for a frame be framed by the resource origins, or by any origin when it has none', () => {
    const postMessage = { action: ADFS, target: '_self' };
    expect(accessPageFrameAncestors(postMessage, [])).toEqual(['*']);
    expect(accessPageFrameAncestors(postMessage, null)).toEqual(['*']);
    expect(accessPageFrameAncestors({ action: 'https://app.example/cb', target: '_top' }, [])).toEqual(['*']);
    expect(
      accessPageFrameAncestors(postMessage, [
        'https://adfs.example',
        'http://127.0.0.1:8080',
        'https://[::1]:8443',
        'https://adfs.example',
      ]),
    ).toEqual(['https://adfs.example', 'http://127.0.0.1:8080', 'https://[::1]:8443']);
    // not meant for a frame: nobody, whatever the resource allows
    expect(accessPageFrameAncestors({ action: 'https://app.example/cb', target: '_self' }, ['https://adfs.example'])).toEqual([]);
    expect(accessPageFrameAncestors(null, ['https://adfs.example'])).toEqual([]);
  });

  it('drops a stored origin that could break the CSP header, and never widens the list to any origin', () => {
    const postMessage = { action: ADFS, target: '_self' };
    const bad = [
      "https://a.example; script-src 'unsafe-inline'",
      'https://a.example/path',
      'https://a.example/',
      'HTTPS://A.EXAMPLE',
      '*',
      'javascript:x',
      'https://a b.example',
      "'none'",
    ];
    expect(accessPageFrameAncestors(postMessage, bad)).toEqual([]);
    expect(accessPageFrameAncestors(postMessage, [...bad, 'https://ok.example'])).toEqual(['https://ok.example']);
  });
});
