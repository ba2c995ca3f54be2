import { OtpKeyError } from './errors';
import { generateHotp, resyncHotp, verifyHotp } from './hotp';
import { RFC4226_SECRET, RFC4226_VECTORS, RFC6238_SEEDS, RFC6238_VECTORS } from '../test/rfc-vectors';
import { randomBytesFrom, randomInt, seededRandom } from '../test/prng';
import type { OtpAlgorithm, OtpDigits } from './types';

const ALGORITHMS: OtpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512'];

describe('generateHotp (otplib with the node:crypto plugin)', () => {
  it.each(RFC4226_VECTORS)('RFC 4226 Appendix D, counter $counter → $hotp', ({ counter, hotp }) => {
    expect(generateHotp({ secret: RFC4226_SECRET, counter })).toBe(hotp);
    expect(
      generateHotp({
        secret: RFC4226_SECRET,
        counter,
        algorithm: 'SHA1',
        digits: 6,
      }),
    ).toBe(hotp);
  });

  it.each(RFC4226_VECTORS)('8 digits are the last 8 digits of the RFC 4226 truncated value, counter $counter', ({ counter, truncated }) => {
    expect(generateHotp({ secret: RFC4226_SECRET, counter, digits: 8 })).toBe(String(truncated % 1e8).padStart(8, '0'));
    expect(generateHotp({ secret: RFC4226_SECRET, counter, digits: 7 })).toBe(String(truncated % 1e7).padStart(7, '0'));
  });

  // RFC 6238's table is HOTP of T with SHA-1/256/512 and 8 digits.
  it.each(RFC6238_VECTORS)('HOTP-SHA1/256/512 at counter T=$t are the RFC 6238 values', ({ t, totp }) => {
    const counter = parseInt(t, 16);
    for (const algorithm of ALGORITHMS) {
      expect(
        generateHotp({
          secret: RFC6238_SEEDS[algorithm],
          counter,
          algorithm,
          digits: 8,
        }),
      ).toBe(totp[algorithm]);
    }
  });

  it('refuses bad options', () => {
    const secret = RFC4226_SECRET;
    expect(() => generateHotp({ secret, counter: -1 })).toThrow(new RangeError('counter must be an integer from 0 to 9007199254740991'));
    expect(() => generateHotp({ secret, counter: 1.5 })).toThrow(RangeError);
    expect(() => generateHotp({ secret, counter: 2 ** 53 })).toThrow(RangeError);
    expect(() => generateHotp({ secret, counter: '1' as unknown as number })).toThrow(RangeError);
    expect(() => generateHotp({ secret, counter: 0, digits: 5 as OtpDigits })).toThrow(new RangeError('digits must be 6, 7 or 8'));
    expect(() => generateHotp({ secret, counter: 0, digits: 9 as OtpDigits })).toThrow(RangeError);
    expect(() => generateHotp({ secret, counter: 0, algorithm: 'MD5' as OtpAlgorithm })).toThrow(
      new RangeError("algorithm must be 'SHA1', 'SHA256' or 'SHA512'"),
    );
    expect(() => generateHotp({ secret, counter: 0, algorithm: 'sha1' as OtpAlgorithm })).toThrow(RangeError);
    expect(() => generateHotp({ secret: Buffer.alloc(15), counter: 0 })).toThrow(OtpKeyError);
    expect(() => generateHotp({ secret: Buffer.alloc(65), counter: 0 })).toThrow(expect.objectContaining({ code: 'KEY_TOO_LONG' }));
    expect(() =>
      generateHotp({
        secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' as unknown as Buffer,
        counter: 0,
      }),
    ).toThrow(expect.objectContaining({ code: 'KEY_INVALID_TYPE' }));
  });

  it('handles counters beyond 2^32 (values from oathtool 2.6.7)', () => {
    // oathtool --hotp [-d 8] -c N 3132333435363738393031323334353637383930
    expect(generateHotp({ secret: RFC4226_SECRET, counter: 2 ** 32 })).toBe('999456');
    expect(generateHotp({ secret: RFC4226_SECRET, counter: 2 ** 32, digits: 8 })).toBe('55999456');
    expect(
      generateHotp({
        secret: RFC4226_SECRET,
        counter: Number.MAX_SAFE_INTEGER,
      }),
    ).toBe('891307');
    expect(
      verifyHotp({
        secret: RFC4226_SECRET,
        code: '891307',
        counter: Number.MAX_SAFE_INTEGER - 4,
      }),
    ).toEqual({
      valid: true,
      counter: Number.MAX_SAFE_INTEGER,
      delta: 4,
    });
  });
});

describe('verifyHotp', () => {
  it.each(RFC4226_VECTORS)('accepts RFC 4226 code $hotp at its counter', ({ counter, hotp }) => {
    expect(
      verifyHotp({
        secret: RFC4226_SECRET,
        code: hotp,
        counter,
        lookAhead: 0,
      }),
    ).toEqual({ valid: true, counter, delta: 0 });
  });

  it.each(RFC6238_VECTORS)('accepts the RFC 6238 8-digit codes as HOTP at T=$t for all three hashes', ({ t, totp }) => {
    const counter = parseInt(t, 16);
    for (const algorithm of ALGORITHMS) {
      const secret = RFC6238_SEEDS[algorithm];
      expect(
        verifyHotp({
          secret,
          code: totp[algorithm],
          counter,
          algorithm,
          digits: 8,
          lookAhead: 0,
        }),
      ).toEqual({
        valid: true,
        counter,
        delta: 0,
      });
      const from = Math.max(0, counter - 3);
      expect(
        verifyHotp({
          secret,
          code: totp[algorithm],
          counter: from,
          algorithm,
          digits: 8,
          lookAhead: 3,
        }),
      ).toEqual({
        valid: true,
        counter,
        delta: counter - from,
      });
    }
  });

  it('looks ahead `lookAhead` counters (default 10), never behind', () => {
    const secret = RFC4226_SECRET;
    // RFC code of counter 9 ('520489') with the next expected counter 0: delta 9.
    expect(verifyHotp({ secret, code: '520489', counter: 0 })).toEqual({
      valid: true,
      counter: 9,
      delta: 9,
    });
    expect(verifyHotp({ secret, code: '520489', counter: 0, lookAhead: 8 })).toEqual({ valid: false });
    expect(verifyHotp({ secret, code: '520489', counter: 0, lookAhead: 9 })).toEqual({ valid: true, counter: 9, delta: 9 });
    // Behind the expected counter: never (this is HOTP's replay protection).
    expect(verifyHotp({ secret, code: '755224', counter: 1 })).toEqual({
      valid: false,
    });
    expect(verifyHotp({ secret, code: '520489', counter: 10 })).toEqual({
      valid: false,
    });
  });

  it('treats malformed codes as invalid without throwing', () => {
    const secret = RFC4226_SECRET;
    for (const code of ['75522', '7552240', '755 224', ' 755224', '755224 ', '75522a', '', '７５５２２４']) {
      expect(verifyHotp({ secret, code, counter: 0 })).toEqual({
        valid: false,
      });
    }
    for (const code of [755224, null, undefined, {}, ['755224']]) {
      expect(verifyHotp({ secret, code: code as unknown as string, counter: 0 })).toEqual({ valid: false });
    }
    // An 8-digit code against a 6-digit verifier and vice versa.
    expect(verifyHotp({ secret, code: '84755224', counter: 0 })).toEqual({
      valid: false,
    });
    expect(verifyHotp({ secret, code: '755224', counter: 0, digits: 8 })).toEqual({ valid: false });
  });

  it('bounds lookAhead to 0..100 with a RangeError', () => {
    const secret = RFC4226_SECRET;
    expect(() => verifyHotp({ secret, code: '755224', counter: 0, lookAhead: 101 })).toThrow(
      new RangeError('lookAhead must be an integer from 0 to 100'),
    );
    expect(() => verifyHotp({ secret, code: '755224', counter: 0, lookAhead: -1 })).toThrow(RangeError);
    expect(() => verifyHotp({ secret, code: '755224', counter: 0, lookAhead: Infinity })).toThrow(RangeError);
    expect(verifyHotp({ secret, code: '755224', counter: 0, lookAhead: 100 })).toEqual({ valid: true, counter: 0, delta: 0 });
    // Bad options throw even when the code is malformed.
    expect(() => verifyHotp({ secret: Buffer.alloc(8), code: 'x', counter: 0 })).toThrow(OtpKeyError);
  });

  it('property: a generated code verifies in the look-ahead and never outside it (seeded)', () => {
    const rnd = seededRandom(4226);
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const algorithm = ALGORITHMS[i % 3];
      const digits = (i % 2 === 0 ? 6 : 8) as OtpDigits;
      const secret = randomBytesFrom(rnd, randomInt(rnd, 16, 64));
      const expected = randomInt(rnd, 0, 2 ** 40);
      const lookAhead = randomInt(rnd, 0, 20);
      const offset = randomInt(rnd, -5, lookAhead + 5);
      const counter = expected + offset;
      const code = generateHotp({ secret, counter, algorithm, digits });
      const result = verifyHotp({
        secret,
        code,
        counter: expected,
        lookAhead,
        algorithm,
        digits,
      });
      // The first counter in expected..expected+lookAhead with the same code (usually `counter` itself).
      let first = -1;
      for (let c = expected; c <= expected + lookAhead; c++) {
        if (generateHotp({ secret, counter: c, algorithm, digits }) === code) {
          first = c;
          break;
        }
      }
      if (offset >= 0 && offset <= lookAhead) {
        // `counter` is in the window, so `first` exists; a collision can only make it earlier.
        expect(first).toBeGreaterThanOrEqual(expected);
        expect(first).toBeLessThanOrEqual(counter);
        expect(result).toEqual({
          valid: true,
          counter: first,
          delta: first - expected,
        });
        if (first === counter) checked++;
      } else if (first === -1) {
        expect(result).toEqual({ valid: false });
        checked++;
      } else {
        // A genuine collision with an in-window code: accepted at that counter, not at `counter`.
        expect(result).toEqual({
          valid: true,
          counter: first,
          delta: first - expected,
        });
      }
    }
    expect(checked).toBeGreaterThan(295);
  });
});

describe('resyncHotp', () => {
  const secret = RFC4226_SECRET;

  it('moves the counter after two consecutive codes (RFC 4226 codes 5 and 6)', () => {
    expect(resyncHotp({ secret, code1: '254676', code2: '287922', counter: 0 })).toEqual({ valid: true, counter: 7 });
    expect(resyncHotp({ secret, code1: '254676', code2: '287922', counter: 5 })).toEqual({ valid: true, counter: 7 });
    expect(
      resyncHotp({
        secret,
        code1: '254676',
        code2: '287922',
        counter: 0,
        resyncWindow: 5,
      }),
    ).toEqual({ valid: true, counter: 7 });
    expect(
      resyncHotp({
        secret,
        code1: '254676',
        code2: '287922',
        counter: 0,
        resyncWindow: 4,
      }),
    ).toEqual({ valid: false });
    expect(resyncHotp({ secret, code1: '254676', code2: '287922', counter: 6 })).toEqual({ valid: false });
  });

  it('refuses codes that are not consecutive or in the wrong order', () => {
    expect(resyncHotp({ secret, code1: '254676', code2: '162583', counter: 0 })).toEqual({ valid: false }); // 5 then 7
    expect(resyncHotp({ secret, code1: '287922', code2: '254676', counter: 0 })).toEqual({ valid: false }); // 6 then 5
    expect(resyncHotp({ secret, code1: '254676', code2: '254676', counter: 0 })).toEqual({ valid: false });
    expect(resyncHotp({ secret, code1: '254676', code2: '28792', counter: 0 })).toEqual({ valid: false });
    expect(
      resyncHotp({
        secret,
        code1: 254676 as unknown as string,
        code2: '287922',
        counter: 0,
      }),
    ).toEqual({ valid: false });
  });

  it('finds a pair far beyond the verify look-ahead', () => {
    const secret2 = RFC6238_SEEDS.SHA256;
    const start = 1_000_000;
    const c = start + 873;
    const code1 = generateHotp({
      secret: secret2,
      counter: c,
      algorithm: 'SHA256',
      digits: 8,
    });
    const code2 = generateHotp({
      secret: secret2,
      counter: c + 1,
      algorithm: 'SHA256',
      digits: 8,
    });
    expect(
      verifyHotp({
        secret: secret2,
        code: code1,
        counter: start,
        algorithm: 'SHA256',
        digits: 8,
        lookAhead: 100,
      }),
    ).toEqual({ valid: false });
    expect(
      resyncHotp({
        secret: secret2,
        code1,
        code2,
        counter: start,
        algorithm: 'SHA256',
        digits: 8,
      }),
    ).toEqual({ valid: false });
    expect(
      resyncHotp({
        secret: secret2,
        code1,
        code2,
        counter: start,
        algorithm: 'SHA256',
        digits: 8,
        resyncWindow: 873,
      }),
    ).toEqual({
      valid: true,
      counter: c + 2,
    });
    // After resync, the next code verifies with delta 0 and the old ones do not.
    const next = generateHotp({
      secret: secret2,
      counter: c + 2,
      algorithm: 'SHA256',
      digits: 8,
    });
    expect(
      verifyHotp({
        secret: secret2,
        code: next,
        counter: c + 2,
        algorithm: 'SHA256',
        digits: 8,
      }),
    ).toEqual({
      valid: true,
      counter: c + 2,
      delta: 0,
    });
    expect(
      verifyHotp({
        secret: secret2,
        code: code2,
        counter: c + 2,
        algorithm: 'SHA256',
        digits: 8,
      }),
    ).toEqual({ valid: false });
  });

  it('bounds resyncWindow to 0..1000', () => {
    expect(() =>
      resyncHotp({
        secret,
        code1: '254676',
        code2: '287922',
        counter: 0,
        resyncWindow: 1001,
      }),
    ).toThrow(new RangeError('resyncWindow must be an integer from 0 to 1000'));
    expect(
      resyncHotp({
        secret,
        code1: '755224',
        code2: '287082',
        counter: 0,
        resyncWindow: 0,
      }),
    ).toEqual({ valid: true, counter: 2 });
  });
});
