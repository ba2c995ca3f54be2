/**
 * Cross-checks against an independent implementation: Debian's `oathtool` (OATH Toolkit).
 *
 * Setup: if `oathtool` is missing, it is installed with `apt-get install -y oathtool`
 * (after `apt-get update` if needed). Only when that is impossible (not root, no apt,
 * no network) are these tests skipped, with a message saying why.
 * OATHTOOL=/path/to/oathtool selects another binary.
 */
import { execFileSync } from 'node:child_process';
import { generateHotp, verifyHotp } from './hotp';
import { generateTotp, totpTimeStep, verifyTotp } from './totp';
import { randomBytesFrom, randomInt, seededRandom } from '../test/prng';
import type { OtpAlgorithm, OtpDigits } from './types';

const OATHTOOL = process.env['OATHTOOL'] || 'oathtool';

function run(cmd: string, args: string[], timeout = 300_000): boolean {
  try {
    execFileSync(cmd, args, {
      stdio: 'pipe',
      timeout,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch {
    return false;
  }
}

/** null when oathtool is usable, else why not. */
function ensureOathtool(): string | null {
  if (run(OATHTOOL, ['--version'])) return null;
  if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return 'oathtool is not installed and this process is not root, so it cannot run `apt-get install -y oathtool`';
  }
  if (!run('apt-get', ['--version'])) return 'oathtool is not installed and apt-get is not available';
  if (!run('apt-get', ['install', '-y', 'oathtool'])) {
    run('apt-get', ['update']);
    if (!run('apt-get', ['install', '-y', 'oathtool'])) return '`apt-get install -y oathtool` failed (even after `apt-get update`)';
  }
  return run(OATHTOOL, ['--version']) ? null : 'oathtool was installed but does not run';
}

const unavailable = ensureOathtool();
if (unavailable !== null) {
  console.warn(`SKIPPING the oathtool cross-checks: ${unavailable}.`);
}
const describeOathtool = unavailable === null ? describe : describe.skip;

function oathtool(args: string[]): string[] {
  return execFileSync(OATHTOOL, args, { encoding: 'utf8' }).trim().split('\n');
}

const ALGORITHMS: OtpAlgorithm[] = ['SHA1', 'SHA256', 'SHA512'];

describeOathtool('cross-check with oathtool', () => {
  it('reports its version (the tests below really ran against it)', () => {
    expect(oathtool(['--version'])[0]).toMatch(/^oathtool \(OATH Toolkit\) \d+\.\d+/);
  });

  it('HOTP-SHA1: random keys and counters (0 .. 2^53-1), 6 and 8 digits, codes c..c+5', () => {
    const rnd = seededRandom(0x4226);
    for (let i = 0; i < 40; i++) {
      const secret = randomBytesFrom(rnd, randomInt(rnd, 16, 64));
      const counter = i < 3 ? [0, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER - 5][i] : randomInt(rnd, 0, Number.MAX_SAFE_INTEGER - 5);
      const digits = (i % 2 === 0 ? 6 : 8) as OtpDigits;
      const codes = oathtool(['--hotp', '-d', String(digits), '-c', String(counter), '-w', '5', secret.toString('hex')]);
      expect(codes).toHaveLength(6);
      codes.forEach((code, k) => {
        expect(generateHotp({ secret, counter: counter + k, digits })).toBe(code);
        const first = codes.indexOf(code); // normally k; earlier only on a collision
        expect(verifyHotp({ secret, code, counter, digits, lookAhead: 5 })).toEqual({
          valid: true,
          counter: counter + first,
          delta: first,
        });
      });
    }
  });

  it('HOTP-SHA256/SHA512 (as oathtool TOTP with a 1 s step, T = counter): random keys and counters', () => {
    const rnd = seededRandom(0x256512);
    for (let i = 0; i < 40; i++) {
      const algorithm = ALGORITHMS[1 + (i % 2)];
      const secret = randomBytesFrom(rnd, randomInt(rnd, 16, 64));
      const counter = randomInt(rnd, 0, 2 ** 36);
      const digits = ([6, 7, 8] as const)[i % 3];
      const codes = oathtool([
        `--totp=${algorithm}`,
        '-d',
        String(digits),
        '-s',
        '1s',
        '-N',
        `@${counter}`,
        '-w',
        '3',
        secret.toString('hex'),
      ]);
      expect(codes).toHaveLength(4);
      codes.forEach((code, k) => {
        expect(generateHotp({ secret, counter: counter + k, algorithm, digits })).toBe(code);
        const first = codes.indexOf(code);
        expect(
          verifyHotp({
            secret,
            code,
            counter,
            algorithm,
            digits,
            lookAhead: 3,
          }),
        ).toEqual({ valid: true, counter: counter + first, delta: first });
      });
    }
  });

  it('TOTP-SHA1/256/512: random keys, times, steps and T0 (`oathtool --totp=sha256 --digits=8 -N @59 <hexkey>` style)', () => {
    const rnd = seededRandom(0x6238);
    for (let i = 0; i < 60; i++) {
      const algorithm = ALGORITHMS[i % 3];
      const secret = randomBytesFrom(rnd, randomInt(rnd, 16, 64));
      const digits = (i % 2 === 0 ? 8 : 6) as OtpDigits;
      const step = i < 30 ? 30 : [1, 30, 45, 60, 300][randomInt(rnd, 0, 4)];
      const t0 = i < 30 ? 0 : randomInt(rnd, 0, 1_500_000_000);
      const seconds = t0 + randomInt(rnd, 0, 2 ** 34);
      const args = [`--totp=${algorithm.toLowerCase()}`, `--digits=${digits}`, '-N', `@${seconds}`, '-w', '2'];
      if (step !== 30) args.push('-s', `${step}s`);
      if (t0 !== 0) args.push('-S', `@${t0}`);
      const codes = oathtool([...args, secret.toString('hex')]);
      expect(codes).toHaveLength(3);
      const time = seconds * 1000 + randomInt(rnd, 0, 999);
      const T = totpTimeStep({ time, step, t0 });
      expect(T).toBe(Math.floor((seconds - t0) / step));
      expect(generateTotp({ secret, time, step, t0, algorithm, digits })).toBe(codes[0]);
      // codes[k] belongs to step T + k; verify each one with window 2.
      codes.forEach((code, k) => {
        expect(
          generateTotp({
            secret,
            time: time + k * step * 1000,
            step,
            t0,
            algorithm,
            digits,
          }),
        ).toBe(code);
        const result = verifyTotp({
          secret,
          code,
          time,
          step,
          t0,
          algorithm,
          digits,
          window: 2,
        });
        expect(result.valid).toBe(true);
        if (result.valid && codes.indexOf(code) === k) expect(result).toEqual({ valid: true, timeStep: T + k, delta: k });
      });
      expect(
        verifyTotp({
          secret,
          code: codes[2],
          time,
          step,
          t0,
          algorithm,
          digits,
          window: 1,
        }).valid,
      ).toBe(codes.slice(0, 2).includes(codes[2]));
    }
  });

  it('the RFC 6238 row at 59 s with oathtool itself (SHA256, 8 digits)', () => {
    expect(oathtool(['--totp=sha256', '--digits=8', '-N', '@59', Buffer.from('12345678901234567890123456789012').toString('hex')])).toEqual(
      ['46119246'],
    );
  });
});
