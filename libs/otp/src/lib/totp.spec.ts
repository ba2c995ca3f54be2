import { OtpKeyError } from './errors';
import { generateHotp } from './hotp';
import { generateTotp, totpTimeStep, verifyTotp } from './totp';
import { RFC6238_SEEDS, RFC6238_VECTORS } from '../test/rfc-vectors';
import { randomBytesFrom, randomInt, seededRandom } from '../test/prng';
import type { OtpAlgorithm, OtpDigits } from './types';

const ALGORITHMS: OtpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512'];
const ROWS = RFC6238_VECTORS.flatMap((row) =>
  ALGORITHMS.map((algorithm) => ({
    ...row,
    algorithm,
    code: row.totp[algorithm],
  })),
);

describe('generateTotp (otplib with the node:crypto plugin)', () => {
  it.each(ROWS)('RFC 6238 Appendix B: $utc ($seconds s) $algorithm → $code', ({ seconds, algorithm, code }) => {
    const secret = RFC6238_SEEDS[algorithm];
    expect(generateTotp({ secret, time: seconds * 1000, algorithm, digits: 8 })).toBe(code);
    // The whole second maps to the same code; explicit defaults change nothing.
    expect(
      generateTotp({
        secret,
        time: seconds * 1000 + 999,
        algorithm,
        digits: 8,
        step: 30,
        t0: 0,
      }),
    ).toBe(code);
    // 6 digits are the last 6 of the 8.
    expect(generateTotp({ secret, time: seconds * 1000, algorithm })).toBe(code.slice(2));
  });

  it('uses SHA1, 6 digits, 30 s and Date.now() by default', () => {
    jest.useFakeTimers({ now: 1111111109 * 1000 });
    try {
      expect(generateTotp({ secret: RFC6238_SEEDS.SHA1 })).toBe('081804');
      expect(totpTimeStep()).toBe(0x23523ec);
      expect(verifyTotp({ secret: RFC6238_SEEDS.SHA1, code: '081804' })).toEqual({ valid: true, timeStep: 0x23523ec, delta: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('honours step and t0: T = floor((seconds - t0) / step)', () => {
    const secret = RFC6238_SEEDS.SHA256;
    const time = 1_700_000_123_456;
    const t0 = 1_000_000_000;
    const expectedStep = Math.floor((1_700_000_123 - t0) / 60);
    expect(totpTimeStep({ time, step: 60, t0 })).toBe(expectedStep);
    expect(
      generateTotp({
        secret,
        time,
        step: 60,
        t0,
        algorithm: 'SHA256',
        digits: 8,
      }),
    ).toBe(
      generateHotp({
        secret,
        counter: expectedStep,
        algorithm: 'SHA256',
        digits: 8,
      }),
    );
    // RFC 6238 row 59 s with T0 = 29: T = 1 only from 59 s, T = 0 before.
    expect(totpTimeStep({ time: 58_999, t0: 29 })).toBe(0);
    expect(totpTimeStep({ time: 59_000, t0: 29 })).toBe(1);
    expect(
      generateTotp({
        secret: RFC6238_SEEDS.SHA1,
        time: 89_000,
        t0: 30,
        digits: 8,
      }),
    ).toBe('94287082');
  });

  it('refuses bad clocks and options', () => {
    const secret = RFC6238_SEEDS.SHA1;
    expect(() => generateTotp({ secret, time: 1000, t0: 2 })).toThrow(new RangeError('time is before t0'));
    expect(() => generateTotp({ secret, time: -1 })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: NaN })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: Infinity })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: 0, step: 0 })).toThrow(new RangeError('step must be an integer from 1 to 3600'));
    expect(() => generateTotp({ secret, time: 0, step: 3601 })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: 0, step: 7.5 })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: 0, t0: -1 })).toThrow(RangeError);
    expect(() => generateTotp({ secret, time: 0, digits: 10 as OtpDigits })).toThrow(RangeError);
    expect(() => generateTotp({ secret: Buffer.alloc(10), time: 0 })).toThrow(OtpKeyError);
    expect(generateTotp({ secret, time: 0, step: 3600 })).toBe(generateHotp({ secret, counter: 0 }));
    expect(generateTotp({ secret, time: 0, step: 1 })).toBe('755224'); // = RFC 4226 counter 0
  });
});

describe('verifyTotp', () => {
  it.each(ROWS)('accepts the RFC 6238 code at $seconds s ($algorithm) with window 0', ({ seconds, t, algorithm, code }) => {
    const secret = RFC6238_SEEDS[algorithm];
    const timeStep = parseInt(t, 16);
    expect(
      verifyTotp({
        secret,
        code,
        time: seconds * 1000,
        algorithm,
        digits: 8,
        window: 0,
      }),
    ).toEqual({ valid: true, timeStep, delta: 0 });
    // One step later it is the previous step: only with a window.
    const later = (seconds + 30) * 1000;
    expect(
      verifyTotp({
        secret,
        code,
        time: later,
        algorithm,
        digits: 8,
        window: 0,
      }),
    ).toEqual({ valid: false });
    expect(verifyTotp({ secret, code, time: later, algorithm, digits: 8 })).toEqual({ valid: true, timeStep, delta: -1 });
    expect(verifyTotp({ secret, code: code.slice(2), time: later, algorithm })).toEqual({ valid: true, timeStep, delta: -1 });
    // Two steps earlier it is two steps ahead: window 2 needed.
    const earlier = (seconds - 60) * 1000;
    if (earlier >= 0) {
      expect(verifyTotp({ secret, code, time: earlier, algorithm, digits: 8 })).toEqual({ valid: false });
      expect(
        verifyTotp({
          secret,
          code,
          time: earlier,
          algorithm,
          digits: 8,
          window: 2,
        }),
      ).toEqual({ valid: true, timeStep, delta: 2 });
    }
  });

  it('uses the RFC rows 1111111109 s and 1111111111 s, which are consecutive steps', () => {
    const secret = RFC6238_SEEDS.SHA1;
    const time = 1111111111 * 1000; // step 0x23523ED; '07081804' is step 0x23523EC
    expect(verifyTotp({ secret, code: '07081804', time, digits: 8 })).toEqual({
      valid: true,
      timeStep: 0x23523ec,
      delta: -1,
    });
    expect(verifyTotp({ secret, code: '14050471', time, digits: 8 })).toEqual({
      valid: true,
      timeStep: 0x23523ed,
      delta: 0,
    });
    expect(verifyTotp({ secret, code: '07081804', time, digits: 8, window: 0 })).toEqual({ valid: false });
  });

  it('replay guard: steps <= afterTimeStep are refused', () => {
    const secret = RFC6238_SEEDS.SHA512;
    const time = 1234567890 * 1000;
    const T = 0x273ef07;
    const opts = {
      secret,
      code: '93441116',
      time,
      algorithm: 'SHA512' as const,
      digits: 8 as const,
    };
    const first = verifyTotp(opts);
    expect(first).toEqual({ valid: true, timeStep: T, delta: 0 });
    // The caller stores timeStep and passes it back: the same code is now refused...
    expect(verifyTotp({ ...opts, afterTimeStep: T })).toEqual({ valid: false });
    // ...even later in the window, and an older code too...
    expect(verifyTotp({ ...opts, time: time + 30_000, afterTimeStep: T })).toEqual({ valid: false });
    const previous = generateTotp({
      secret,
      time: time - 30_000,
      algorithm: 'SHA512',
      digits: 8,
    });
    expect(verifyTotp({ ...opts, code: previous, afterTimeStep: T })).toEqual({
      valid: false,
    });
    expect(verifyTotp({ ...opts, code: previous })).toEqual({
      valid: true,
      timeStep: T - 1,
      delta: -1,
    });
    // ...while the next step's code is still accepted.
    const next = generateTotp({
      secret,
      time: time + 30_000,
      algorithm: 'SHA512',
      digits: 8,
    });
    expect(verifyTotp({ ...opts, code: next, afterTimeStep: T })).toEqual({
      valid: true,
      timeStep: T + 1,
      delta: 1,
    });
    expect(verifyTotp({ ...opts, afterTimeStep: T - 1 })).toEqual({
      valid: true,
      timeStep: T,
      delta: 0,
    });
    expect(() => verifyTotp({ ...opts, afterTimeStep: 1.5 })).toThrow(RangeError);
    expect(() => verifyTotp({ ...opts, afterTimeStep: -2 })).toThrow(RangeError);
  });

  it('driftSteps moves the centre of the window; delta stays relative to the real clock', () => {
    const secret = RFC6238_SEEDS.SHA1;
    const time = 2_000_000_000 * 1000;
    const T = totpTimeStep({ time });
    const ahead = generateHotp({ secret, counter: T + 5, digits: 8 });
    expect(verifyTotp({ secret, code: ahead, time, digits: 8 })).toEqual({
      valid: false,
    });
    expect(
      verifyTotp({
        secret,
        code: ahead,
        time,
        digits: 8,
        driftSteps: 5,
        window: 0,
      }),
    ).toEqual({ valid: true, timeStep: T + 5, delta: 5 });
    expect(verifyTotp({ secret, code: ahead, time, digits: 8, driftSteps: 4 })).toEqual({ valid: true, timeStep: T + 5, delta: 5 });
    expect(verifyTotp({ secret, code: ahead, time, digits: 8, driftSteps: 3 })).toEqual({ valid: false });
    const behind = generateHotp({ secret, counter: T - 7, digits: 8 });
    expect(verifyTotp({ secret, code: behind, time, digits: 8, driftSteps: -6 })).toEqual({ valid: true, timeStep: T - 7, delta: -7 });
    // With drift, the current step itself may fall outside the window.
    const now = generateHotp({ secret, counter: T, digits: 8 });
    expect(verifyTotp({ secret, code: now, time, digits: 8, driftSteps: 5 })).toEqual({ valid: false });
    expect(() => verifyTotp({ secret, code: now, time, driftSteps: 101 })).toThrow(
      new RangeError('driftSteps must be an integer from -100 to 100'),
    );
    expect(() => verifyTotp({ secret, code: now, time, driftSteps: -101 })).toThrow(RangeError);
  });

  it('bounds window to 0..10 with a RangeError', () => {
    const secret = RFC6238_SEEDS.SHA1;
    const time = 59_000;
    expect(() => verifyTotp({ secret, code: '287082', time, window: 11 })).toThrow(
      new RangeError('window must be an integer from 0 to 10'),
    );
    expect(() => verifyTotp({ secret, code: '287082', time, window: -1 })).toThrow(RangeError);
    expect(() => verifyTotp({ secret, code: '287082', time, window: 1.5 })).toThrow(RangeError);
    expect(verifyTotp({ secret, code: '287082', time, window: 10 })).toEqual({
      valid: true,
      timeStep: 1,
      delta: 0,
    });
  });

  it('skips negative steps near T0 instead of failing', () => {
    const secret = RFC6238_SEEDS.SHA1;
    // Step 0 is RFC 4226 counter 0.
    expect(verifyTotp({ secret, code: '755224', time: 0, window: 10 })).toEqual({ valid: true, timeStep: 0, delta: 0 });
    expect(
      verifyTotp({
        secret,
        code: '755224',
        time: 0,
        window: 10,
        driftSteps: -100,
      }),
    ).toEqual({ valid: false });
    expect(
      verifyTotp({
        secret,
        code: '287082',
        time: 0,
        driftSteps: -1,
        window: 2,
      }),
    ).toEqual({ valid: true, timeStep: 1, delta: 1 });
  });

  it('treats malformed codes as invalid without throwing', () => {
    const secret = RFC6238_SEEDS.SHA1;
    const time = 59_000;
    for (const code of ['28708', '2870822', '287 082', '28708x', '', '94287082']) {
      expect(verifyTotp({ secret, code, time })).toEqual({ valid: false });
    }
    for (const code of [287082, null, undefined, Symbol('x'), { toString: () => '287082' }]) {
      expect(verifyTotp({ secret, code: code as unknown as string, time })).toEqual({ valid: false });
    }
    expect(verifyTotp({ secret, code: '287082', time })).toEqual({
      valid: true,
      timeStep: 1,
      delta: 0,
    });
  });

  it('property: a generated code verifies inside the window and never outside it (seeded)', () => {
    const rnd = seededRandom(6238);
    let exact = 0;
    for (let i = 0; i < 400; i++) {
      const algorithm = ALGORITHMS[i % 3];
      const digits = ([6, 7, 8] as const)[randomInt(rnd, 0, 2)];
      const secret = randomBytesFrom(rnd, randomInt(rnd, 16, 64));
      const step = [30, 30, 60, 1, 90][randomInt(rnd, 0, 4)];
      const t0 = randomInt(rnd, 0, 1) === 0 ? 0 : randomInt(rnd, 0, 1_000_000_000);
      const time = (t0 + randomInt(rnd, 3600, 5_000_000_000)) * 1000 + randomInt(rnd, 0, 999);
      const window = randomInt(rnd, 0, 10);
      const driftSteps = randomInt(rnd, 0, 3) === 0 ? randomInt(rnd, -20, 20) : 0;
      const current = totpTimeStep({ time, step, t0 });
      const centre = current + driftSteps;
      const offset = randomInt(rnd, -window - 3, window + 3);
      const target = centre + offset;
      const code = generateTotp({
        secret,
        time: (t0 + target * step) * 1000,
        step,
        t0,
        algorithm,
        digits,
      });
      expect(generateHotp({ secret, counter: target, algorithm, digits })).toBe(code);

      const result = verifyTotp({
        secret,
        code,
        time,
        step,
        t0,
        algorithm,
        digits,
        window,
        driftSteps,
      });
      // Expected: the first step in the nearest-first scan whose code equals `code`.
      let expected: number | undefined;
      for (let j = 0; j <= 2 * window && expected === undefined; j++) {
        const s = centre + (j % 2 === 1 ? -(j + 1) / 2 : j / 2);
        if (generateHotp({ secret, counter: s, algorithm, digits }) === code) expected = s;
      }
      if (Math.abs(offset) <= window) expect(expected).toBeDefined();
      expect(result).toEqual(expected === undefined ? { valid: false } : { valid: true, timeStep: expected, delta: expected - current });
      if (expected === target || (Math.abs(offset) > window && expected === undefined)) exact++;
      // With the replay guard at the matched step, the same code is refused.
      if (result.valid) {
        expect(
          verifyTotp({
            secret,
            code,
            time,
            step,
            t0,
            algorithm,
            digits,
            window,
            driftSteps,
            afterTimeStep: result.timeStep,
          }),
        ).toEqual(expected === target ? { valid: false } : expect.anything());
      }
    }
    // Collisions of 6- to 8-digit codes inside a window are rare: nearly every case is exact.
    expect(exact).toBeGreaterThan(395);
  });
});
