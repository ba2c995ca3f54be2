import { ValidationFailed } from './domain-error';
import { RESOURCE_FRAME_ORIGINS_MAX, validateFrameOrigin, validateFrameOrigins, validateTokenFormat } from './resources';

describe('resource rules', () => {
  it.each([
    ['JwtHS256', 'JwtHS256'],
    ['JwtRS256', 'JwtRS256'],
    ['jwtrs256', 'JwtRS256'],
    [' JWTHS256 ', 'JwtHS256'],
  ])('reads the token format %p as %p', (raw, format) => {
    expect(validateTokenFormat(raw)).toBe(format);
  });

  it.each(['HS256', 'RS256', 'JwtES256', '', null, 42, ['JwtRS256']])('refuses the token format %p', (raw) => {
    expect(() => validateTokenFormat(raw)).toThrow(ValidationFailed);
  });

  it.each([
    ['https://sso.example.com', 'https://sso.example.com'],
    ['https://sso.example.com/', 'https://sso.example.com'],
    ['HTTPS://SSO.Example.COM:443', 'https://sso.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://10.0.0.5:8443', 'http://10.0.0.5:8443'],
    ['https://[::1]:9000', 'https://[::1]:9000'],
    ['  https://adfs.corp.example  ', 'https://adfs.corp.example'],
  ])('normalizes the origin %p to %p', (raw, origin) => {
    expect(validateFrameOrigin(raw)).toBe(origin);
  });

  it.each([
    'sso.example.com',
    'ftp://sso.example.com',
    'javascript:alert(1)',
    'https://sso.example.com/path',
    'https://sso.example.com/?',
    'https://sso.example.com?x=1',
    'https://sso.example.com#top',
    'https://user@sso.example.com',
    'https://user:pw@sso.example.com',
    'https://*.example.com',
    'https://sso.example.com:99999',
    'https:\\\\sso.example.com',
    'https://',
    '*',
    "'self'",
    'https://a.example https://b.example',
    '',
    null,
    42,
    { origin: 'https://a.example' },
  ])('refuses %p as an origin', (raw) => {
    expect(() => validateFrameOrigin(raw)).toThrow(ValidationFailed);
  });

  it('names the refused entry, cut short so huge input is never echoed', () => {
    const huge = `https://${'a'.repeat(100_000)}.example/x`;
    let message = '';
    try {
      validateFrameOrigins(['https://ok.example', huge]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('frameOrigins: "https://aaaa');
    expect(message.length).toBeLessThan(250);
    expect(() => validateFrameOrigins(['https://ok.example', 'https://bad.example/path'])).toThrow('"https://bad.example/path"');
  });

  it('removes duplicates after normalization and keeps the order', () => {
    expect(validateFrameOrigins(['https://b.example', 'https://A.example/', 'https://b.example:443', 'https://a.example'])).toEqual([
      'https://b.example',
      'https://a.example',
    ]);
    expect(validateFrameOrigins([])).toEqual([]);
  });

  it(`takes at most ${RESOURCE_FRAME_ORIGINS_MAX} origins, and only an array`, () => {
    const many = Array.from({ length: RESOURCE_FRAME_ORIGINS_MAX + 1 }, (_, i) => `https://o${i}.example`);
    expect(validateFrameOrigins(many.slice(0, RESOURCE_FRAME_ORIGINS_MAX))).toHaveLength(RESOURCE_FRAME_ORIGINS_MAX);
    expect(() => validateFrameOrigins(many)).toThrow(ValidationFailed);
    expect(() => validateFrameOrigins('https://a.example')).toThrow(ValidationFailed);
    expect(() => validateFrameOrigins({ 0: 'https://a.example' })).toThrow(ValidationFailed);
  });
});
