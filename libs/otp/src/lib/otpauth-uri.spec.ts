import { OtpKeyError, OtpUriError, type OtpUriErrorCode } from './errors';
import { generateOtpauthUri, parseOtpauthUri, type OtpauthUriOptions } from './otpauth-uri';
import { RFC6238_SEEDS } from '../test/rfc-vectors';
import { randomBytesFrom, randomInt, seededRandom } from '../test/prng';
import type { OtpAlgorithm, OtpDigits } from './types';

const SECRET = RFC6238_SEEDS.SHA1; // Base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ
const B32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

function expectUriError(fn: () => unknown, code: OtpUriErrorCode): OtpUriError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(OtpUriError);
  const error = caught as OtpUriError;
  expect(error.code).toBe(code);
  expect(error.name).toBe('OtpUriError');
  expect(error.message).not.toContain(B32);
  expect(error.message).not.toContain(B32.slice(0, 10));
  expect(error.message).not.toContain('secret=');
  expect(error.message).not.toMatch(/otpauth:\/\/[th]otp/i);
  return error;
}

describe('generateOtpauthUri', () => {
  it('writes the Google Authenticator Key URI for TOTP with every parameter explicit', () => {
    expect(
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        issuer: 'Example',
        account: 'alice@google.com',
      }),
    ).toBe(`otpauth://totp/Example:alice%40google.com?secret=${B32}&issuer=Example&algorithm=SHA1&digits=6&period=30`);
  });

  it('writes HOTP with its counter, and non-default algorithm, digits and period', () => {
    expect(
      generateOtpauthUri({
        type: 'hotp',
        secret: SECRET,
        issuer: 'ACME',
        account: 'bob',
        counter: 42,
        algorithm: 'SHA512',
        digits: 8,
      }),
    ).toBe(`otpauth://hotp/ACME:bob?secret=${B32}&issuer=ACME&algorithm=SHA512&digits=8&counter=42`);
    expect(generateOtpauthUri({ type: 'hotp', secret: SECRET, account: 'bob' })).toBe(
      `otpauth://hotp/bob?secret=${B32}&algorithm=SHA1&digits=6&counter=0`,
    );
    expect(
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        account: 'bob',
        period: 60,
        algorithm: 'SHA256',
        digits: 7,
      }),
    ).toBe(`otpauth://totp/bob?secret=${B32}&algorithm=SHA256&digits=7&period=60`);
  });

  it('percent-escapes spaces as %20 and ":" inside issuer or account as %3A', () => {
    expect(
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        issuer: 'Big Corp: EU',
        account: 'john doe:admin@x.org',
      }),
    ).toBe(
      `otpauth://totp/Big%20Corp%3A%20EU:john%20doe%3Aadmin%40x.org?secret=${B32}&issuer=Big%20Corp%3A%20EU&algorithm=SHA1&digits=6&period=30`,
    );
    expect(
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        issuer: 'a&b=c?d/e#f+g%h',
        account: 'Zoë ✓',
      }),
    ).toBe(
      `otpauth://totp/a%26b%3Dc%3Fd%2Fe%23f%2Bg%25h:Zo%C3%AB%20%E2%9C%93?secret=${B32}&issuer=a%26b%3Dc%3Fd%2Fe%23f%2Bg%25h&algorithm=SHA1&digits=6&period=30`,
    );
  });

  it('refuses bad options', () => {
    expectUriError(() => generateOtpauthUri({ type: 'totp', secret: SECRET, account: '' }), 'URI_BAD_LABEL');
    expectUriError(
      () =>
        generateOtpauthUri({
          type: 'totp',
          secret: SECRET,
          account: 'a',
          issuer: '',
        }),
      'URI_BAD_PARAMETER',
    );
    expectUriError(
      () =>
        generateOtpauthUri({
          type: 'totp',
          secret: SECRET,
          account: ' a',
          issuer: 'I',
        }),
      'URI_BAD_LABEL',
    );
    expect(generateOtpauthUri({ type: 'totp', secret: SECRET, account: ' a' })).toMatch(/^otpauth:\/\/totp\/%20a\?/);
    expectUriError(
      () =>
        generateOtpauthUri({
          type: 'totp',
          secret: SECRET,
          account: 'bad \uD800 surrogate',
        }),
      'URI_BAD_ENCODING',
    );
    expect(() =>
      generateOtpauthUri({
        type: 'totp',
        secret: Buffer.alloc(8),
        account: 'a',
      }),
    ).toThrow(OtpKeyError);
    expect(() =>
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        account: 'a',
        period: 0,
      }),
    ).toThrow(RangeError);
    expect(() =>
      generateOtpauthUri({
        type: 'hotp',
        secret: SECRET,
        account: 'a',
        counter: -1,
      }),
    ).toThrow(RangeError);
    expect(() =>
      generateOtpauthUri({
        type: 'motp',
        secret: SECRET,
        account: 'a',
      } as unknown as OtpauthUriOptions),
    ).toThrow(RangeError);
    expect(() =>
      generateOtpauthUri({
        type: 'totp',
        secret: SECRET,
        account: 'a',
        digits: 10 as OtpDigits,
      }),
    ).toThrow(RangeError);
  });
});

describe('parseOtpauthUri', () => {
  it('parses the Google example, filling defaults', () => {
    expect(parseOtpauthUri(`otpauth://totp/Example:alice@google.com?secret=${B32}&issuer=Example`)).toEqual({
      type: 'totp',
      account: 'alice@google.com',
      issuer: 'Example',
      secret: SECRET,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
  });

  it('parses HOTP with counter, algorithm and digits; scheme and type case-insensitive', () => {
    expect(
      parseOtpauthUri(`OTPAUTH://HOTP/ACME%20Co:john.doe%40email.com?secret=${B32.toLowerCase()}&algorithm=sha256&digits=8&counter=7`),
    ).toEqual({
      type: 'hotp',
      account: 'john.doe@email.com',
      issuer: 'ACME Co',
      secret: SECRET,
      algorithm: 'SHA256',
      digits: 8,
      counter: 7,
    });
  });

  it('decodes escapes, allows spaces after the colon, keeps "+" literal, ignores unknown parameters', () => {
    const parsed = parseOtpauthUri(
      `otpauth://totp/Big%20Corp%3A%20EU:%20%20john%3Aadmin+1?secret=${B32}&image=https%3A%2F%2Fx%2Fy.png&period=60`,
    );
    expect(parsed).toEqual({
      type: 'totp',
      account: 'john:admin+1',
      issuer: 'Big Corp: EU',
      secret: SECRET,
      algorithm: 'SHA1',
      digits: 6,
      period: 60,
    });
    expect(parseOtpauthUri(`otpauth://totp/alice?secret=${B32}`)).toEqual({
      type: 'totp',
      account: 'alice',
      secret: SECRET,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    expect(parseOtpauthUri(`otpauth://totp/alice?issuer=Only%20Param&secret=${B32}`)).toMatchObject({
      issuer: 'Only Param',
      account: 'alice',
    });
  });

  it('round-trips generated URIs (seeded, every type, algorithm and digit count)', () => {
    const rnd = seededRandom(0x0a7);
    const alphabet = ['a', 'Z', '9', ' ', ':', '@', '&', '=', '?', '/', '#', '%', '+', 'é', '✓', '😀', '.', '-', '_', '~'];
    const text = (min: number) => {
      let s = '';
      const n = randomInt(rnd, min, 12);
      for (let i = 0; i < n; i++) s += alphabet[randomInt(rnd, 0, alphabet.length - 1)];
      return s;
    };
    for (let i = 0; i < 200; i++) {
      const common = {
        secret: randomBytesFrom(rnd, randomInt(rnd, 16, 64)),
        account: text(1).replace(/^ +/, '') || 'x', // (leading spaces are refused with an issuer)
        algorithm: (['SHA1', 'SHA256', 'SHA512'] as OtpAlgorithm[])[i % 3],
        digits: ([6, 7, 8] as OtpDigits[])[randomInt(rnd, 0, 2)],
      };
      const issuer = randomInt(rnd, 0, 3) === 0 ? undefined : text(1);
      const opts: OtpauthUriOptions =
        i % 2 === 0
          ? {
              type: 'totp',
              ...common,
              ...(issuer === undefined ? {} : { issuer }),
              period: randomInt(rnd, 1, 3600),
            }
          : {
              type: 'hotp',
              ...common,
              ...(issuer === undefined ? {} : { issuer }),
              counter: randomInt(rnd, 0, Number.MAX_SAFE_INTEGER),
            };
      const uri = generateOtpauthUri(opts);
      expect(uri).toMatch(/^otpauth:\/\/[th]otp\/[A-Za-z0-9%._~!*'()-]+(:[A-Za-z0-9%._~!*'()-]+)?\?[A-Za-z0-9%._~!*'()=&-]+$/);
      expect(parseOtpauthUri(uri)).toEqual(opts);
      expect(generateOtpauthUri(parseOtpauthUri(uri))).toBe(uri);
    }
  });

  it.each<[string, string, OtpUriErrorCode]>([
    ['another scheme', `https://totp/a?secret=${B32}`, 'URI_MALFORMED'],
    ['no label separator', `otpauth://totp?secret=${B32}`, 'URI_MALFORMED'],
    ['a fragment', `otpauth://totp/a?secret=${B32}#frag`, 'URI_MALFORMED'],
    ['an unknown type', `otpauth://motp/a?secret=${B32}`, 'URI_BAD_TYPE'],
    ['an empty label', `otpauth://totp/?secret=${B32}`, 'URI_BAD_LABEL'],
    ['an empty account', `otpauth://totp/Issuer:?secret=${B32}`, 'URI_BAD_LABEL'],
    ['an empty issuer prefix', `otpauth://totp/:alice?secret=${B32}`, 'URI_BAD_LABEL'],
    ['two unescaped colons', `otpauth://totp/a:b:c?secret=${B32}`, 'URI_BAD_LABEL'],
    ['a bad escape in the label', `otpauth://totp/a%zz?secret=${B32}`, 'URI_BAD_ENCODING'],
    ['a bad escape in a value', `otpauth://totp/a?secret=${B32}&issuer=%E2%9C`, 'URI_BAD_ENCODING'],
    ['a parameter without =', `otpauth://totp/a?secret=${B32}&digits`, 'URI_BAD_PARAMETER'],
    ['a duplicate secret', `otpauth://totp/a?secret=${B32}&secret=${B32}`, 'URI_DUPLICATE_PARAMETER'],
    ['no secret', 'otpauth://totp/a?issuer=x', 'URI_MISSING_SECRET'],
    ['an empty secret', 'otpauth://totp/a?secret=', 'URI_MISSING_SECRET'],
    ['a non-Base32 secret', `otpauth://totp/a?secret=${B32.slice(0, 31)}1`, 'URI_BAD_SECRET'],
    ['a short secret', 'otpauth://totp/a?secret=GEZDGNBVGY3TQOJQ', 'URI_BAD_SECRET'],
    ['an unknown algorithm', `otpauth://totp/a?secret=${B32}&algorithm=MD5`, 'URI_BAD_PARAMETER'],
    ['digits 5', `otpauth://totp/a?secret=${B32}&digits=5`, 'URI_BAD_PARAMETER'],
    ['digits 06', `otpauth://totp/a?secret=${B32}&digits=06`, 'URI_BAD_PARAMETER'],
    ['period 0', `otpauth://totp/a?secret=${B32}&period=0`, 'URI_BAD_PARAMETER'],
    ['period -30', `otpauth://totp/a?secret=${B32}&period=-30`, 'URI_BAD_PARAMETER'],
    ['period 30.5', `otpauth://totp/a?secret=${B32}&period=30.5`, 'URI_BAD_PARAMETER'],
    ['hotp without counter', `otpauth://hotp/a?secret=${B32}`, 'URI_MISSING_COUNTER'],
    ['counter beyond 2^53', `otpauth://hotp/a?secret=${B32}&counter=9007199254740992`, 'URI_BAD_PARAMETER'],
    ['counter 1e3', `otpauth://hotp/a?secret=${B32}&counter=1e3`, 'URI_BAD_PARAMETER'],
    ['an empty issuer parameter', `otpauth://totp/a?secret=${B32}&issuer=`, 'URI_BAD_PARAMETER'],
    ['issuers that differ', `otpauth://totp/Foo:a?secret=${B32}&issuer=Bar`, 'URI_ISSUER_MISMATCH'],
    ['an over-long URI', `otpauth://totp/${'a'.repeat(5000)}?secret=${B32}`, 'URI_TOO_LONG'],
  ])('refuses %s', (_what, uri, code) => {
    expectUriError(() => parseOtpauthUri(uri), code);
  });

  it('keeps the key error as the cause of URI_BAD_SECRET, without key material', () => {
    const error = expectUriError(() => parseOtpauthUri(`otpauth://totp/a?secret=${B32}A`), 'URI_BAD_SECRET');
    expect(error.cause).toBeInstanceOf(OtpKeyError);
    expect((error.cause as OtpKeyError).code).toBe('KEY_BASE32_BAD_LENGTH');
    expect(error.message).toBe("otpauth URI: 'secret' is not a valid Base32 key (KEY_BASE32_BAD_LENGTH)");
  });

  it('refuses non-strings', () => {
    expectUriError(() => parseOtpauthUri(undefined as unknown as string), 'URI_MALFORMED');
  });
});
