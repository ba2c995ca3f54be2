/**
 * OTP verification benchmark: @twofold/otp vs otplib vs the raw HMAC limit.
 *
 *   npx ts-node tools/bench/otp/bench-otp.ts [--slice-ms=25] [--rounds=12] [--algorithms=SHA1,SHA256,SHA512]
 *
 * (`node -r ts-node/register <file>.ts` does not work with Node 20.19+, which hands a
 * .ts entry point to its ESM loader; the ts-node binary runs it as CommonJS. The
 * tsconfig.json beside this file makes ts-node transpile-only and CommonJS.)
 *
 * Every verification measured here FAILS (the code matches no step/counter), so it
 * computes every HMAC of its window: verifyTotp window 1 = 3 HMACs, verifyHotp
 * look-ahead 10 = 11 HMACs. "per HMAC" rates are ops/s × HMACs per op, comparable with
 * the raw limit: crypto.createHmac + dynamic truncation in a tight loop.
 *
 * Noise: contenders are interleaved (round-robin, `rounds` slices of `slice-ms` each)
 * and the best slice counts, so a busy machine slows all of them alike and the ratios
 * stay meaningful. The median slice is printed too.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import { NobleCryptoPlugin, verifySync } from 'otplib';
// Relative on purpose: plain ts-node does not resolve the @twofold/otp path alias.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { generateHotp, generateTotp, nodeCryptoPlugin, verifyHotp, verifyTotp, type OtpAlgorithm } from '../../../libs/otp/src';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = ''] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const SLICE_MS = Number(args.get('slice-ms') ?? 25);
const ROUNDS = Number(args.get('rounds') ?? 12);
const ALGORITHMS = (args.get('algorithms') ?? 'SHA1,SHA256,SHA512').split(',') as OtpAlgorithm[];

const SEEDS: Record<OtpAlgorithm, Buffer> = {
  SHA1: Buffer.from('12345678901234567890'),
  SHA256: Buffer.from('12345678901234567890123456789012'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const TIME_MS = 1_700_000_000_000;
const TIME_S = TIME_MS / 1000;
const COUNTER = 1_000_000;

let sink = 0; // keeps results alive

/** Operations per second of `fn` over one slice of `ms` milliseconds. */
function slice(fn: () => unknown, ms: number): number {
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(ms * 1e6));
  let ops = 0;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 16; i++) fn();
    ops += 16;
    now = process.hrtime.bigint();
  }
  return ops / (Number(now - start) / 1e9);
}

/** A code of `digits` digits matching none of `candidates`. */
function failingCode(digits: number, candidates: string[]): string {
  for (let n = 0; ; n++) {
    const code = String(n).padStart(digits, '0');
    if (!candidates.includes(code)) return code;
  }
}

interface Row {
  algorithm: OtpAlgorithm;
  name: string;
  hmacs: number;
  fn: () => void;
  samples: number[];
  opsPerSec: number; // best slice
  median: number;
}

const rows: Row[] = [];
const push = (row: Omit<Row, 'samples' | 'opsPerSec' | 'median'>) => rows.push({ ...row, samples: [], opsPerSec: 0, median: 0 });
const started = Date.now();
/** otplib measured with its default pure-JS crypto and with our node:crypto plugin, row by row. */
const OTPLIB_PLUGINS = [
  ['noble (default)', new NobleCryptoPlugin()],
  ['node plugin', nodeCryptoPlugin],
] as const;

for (const algorithm of ALGORITHMS) {
  const secret = SEEDS[algorithm];
  const hash = algorithm.toLowerCase() as 'sha1' | 'sha256' | 'sha512';

  // Codes that fail: not among the TOTP window or the HOTP look-ahead.
  const totpWindow = [-1, 0, 1].map((k) => generateTotp({ secret, algorithm, time: TIME_MS + k * 30_000 }));
  const hotpWindow = Array.from({ length: 11 }, (_, k) => generateHotp({ secret, algorithm, counter: COUNTER + k }));
  const totpCode = failingCode(6, totpWindow);
  const hotpCode = failingCode(6, hotpWindow);

  // Sanity: every contender really fails (and so computes its whole window).
  const ours1 = verifyTotp({
    secret,
    code: totpCode,
    time: TIME_MS,
    window: 1,
    algorithm,
  });
  const ours2 = verifyHotp({
    secret,
    code: hotpCode,
    counter: COUNTER,
    lookAhead: 10,
    algorithm,
  });
  const lib1 = verifySync({
    strategy: 'totp',
    secret,
    token: totpCode,
    epoch: TIME_S,
    epochTolerance: 30,
    algorithm: hash,
  });
  const lib2 = verifySync({
    strategy: 'hotp',
    secret,
    token: hotpCode,
    counter: COUNTER,
    counterTolerance: 10,
    algorithm: hash,
  });
  if (ours1.valid || ours2.valid || lib1.valid || lib2.valid) throw new Error('a benchmark code unexpectedly verified');
  // And both agree on a code that should pass.
  if (
    !verifySync({
      strategy: 'totp',
      secret,
      token: totpWindow[2],
      epoch: TIME_S,
      epochTolerance: 30,
      algorithm: hash,
      crypto: nodeCryptoPlugin,
    }).valid
  ) {
    throw new Error('otplib does not accept our next-step code');
  }

  // The physical limit: one createHmac + dynamic truncation per iteration, keyed with a key object made
  // once (on Node 24 a byte key costs about 10 µs more per createHmac: the verifiers make one per call)
  const rawKey = createSecretKey(secret);
  const msg = Buffer.alloc(8);
  let c = 0;
  push({
    algorithm,
    name: 'raw createHmac + truncation',
    hmacs: 1,
    fn: () => {
      msg.writeUInt32BE(c++ >>> 0, 4);
      const mac = createHmac(hash, rawKey).update(msg).digest();
      const o = mac[mac.length - 1] & 0xf;
      sink ^= (((mac[o] & 0x7f) << 24) | (mac[o + 1] << 16) | (mac[o + 2] << 8) | mac[o + 3]) % 1_000_000;
    },
  });

  push({
    algorithm,
    name: 'ours  verifyTotp  (window 1)',
    hmacs: 3,
    fn: () => {
      sink ^= verifyTotp({
        secret,
        code: totpCode,
        time: TIME_MS,
        window: 1,
        algorithm,
      }).valid
        ? 1
        : 0;
    },
  });
  for (const [pluginName, plugin] of OTPLIB_PLUGINS) {
    push({
      algorithm,
      name: `otplib verifySync totp, ${pluginName}`,
      hmacs: 3,
      fn: () => {
        sink ^= verifySync({
          strategy: 'totp',
          secret,
          token: totpCode,
          epoch: TIME_S,
          epochTolerance: 30,
          algorithm: hash,
          crypto: plugin,
        }).valid
          ? 1
          : 0;
      },
    });
  }

  push({
    algorithm,
    name: 'ours  verifyHotp  (look-ahead 10)',
    hmacs: 11,
    fn: () => {
      sink ^= verifyHotp({
        secret,
        code: hotpCode,
        counter: COUNTER,
        lookAhead: 10,
        algorithm,
      }).valid
        ? 1
        : 0;
    },
  });
  for (const [pluginName, plugin] of OTPLIB_PLUGINS) {
    push({
      algorithm,
      name: `otplib verifySync hotp, ${pluginName}`,
      hmacs: 11,
      fn: () => {
        sink ^= verifySync({
          strategy: 'hotp',
          secret,
          token: hotpCode,
          counter: COUNTER,
          counterTolerance: 10,
          algorithm: hash,
          crypto: plugin,
        }).valid
          ? 1
          : 0;
      },
    });
  }
}

// ---- measure: warm up, then interleave ----
for (const row of rows) slice(row.fn, SLICE_MS * 2);
for (let r = 0; r < ROUNDS; r++) for (const row of rows) row.samples.push(slice(row.fn, SLICE_MS));
for (const row of rows) {
  const sorted = [...row.samples].sort((a, b) => a - b);
  row.opsPerSec = sorted[sorted.length - 1];
  row.median = sorted[Math.floor(sorted.length / 2)];
}

// ---- table ----
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(0)}%`;
const header = [
  'hash',
  'contender (every verification fails)',
  'HMACs/op',
  'ops/s best',
  'ops/s median',
  'HMAC/s',
  'per HMAC vs raw',
  'vs fastest otplib',
];
/** The raw-HMAC row of `algorithm` (pushed first for each algorithm). */
function rawRow(algorithm: OtpAlgorithm): Row {
  const raw = rows.find((r) => r.algorithm === algorithm && r.hmacs === 1);
  if (raw === undefined) throw new Error(`no raw row for ${algorithm}`);
  return raw;
}

const lines: string[][] = [];
for (const row of rows) {
  const raw = rawRow(row.algorithm);
  const hmacRate = row.opsPerSec * row.hmacs;
  const otplibSame = rows.filter((r) => r.algorithm === row.algorithm && r.hmacs === row.hmacs && r.name.startsWith('otplib'));
  const bestOtplib = Math.max(...otplibSame.map((r) => r.opsPerSec));
  lines.push([
    row.algorithm,
    row.name,
    String(row.hmacs),
    fmt(row.opsPerSec),
    fmt(row.median),
    fmt(hmacRate),
    pct(hmacRate / raw.opsPerSec),
    row.hmacs === 1 ? '' : `${(row.opsPerSec / bestOtplib).toFixed(2)}×`,
  ]);
}
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const print = (cells: string[]) =>
  console.log(cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  '));
console.log(
  `node ${process.version} ${process.arch}; ${ROUNDS} interleaved slices of ${SLICE_MS} ms per contender, ratios from the best slice`,
);
print(header);
print(widths.map((w) => '-'.repeat(w)));
let lastAlg = '';
for (const l of lines) {
  if (lastAlg && l[0] !== lastAlg) print(widths.map(() => ''));
  lastAlg = l[0];
  print(l);
}

// ---- targets ----
let ok = true;
for (const algorithm of ALGORITHMS) {
  const raw = rawRow(algorithm).opsPerSec;
  for (const ours of rows.filter((r) => r.algorithm === algorithm && r.name.startsWith('ours'))) {
    const perHmac = (ours.opsPerSec * ours.hmacs) / raw;
    const otplib = Math.max(
      ...rows.filter((r) => r.algorithm === algorithm && r.hmacs === ours.hmacs && r.name.startsWith('otplib')).map((r) => r.opsPerSec),
    );
    const pass = perHmac >= 0.8 && ours.opsPerSec >= otplib;
    ok &&= pass;
    console.log(
      `${pass ? 'PASS' : 'FAIL'} ${algorithm} ${ours.name.replace(/^ours\s+/, '').trim()}: ${pct(perHmac)} of raw per HMAC (target ≥ 80%), ${(ours.opsPerSec / otplib).toFixed(2)}× otplib (target ≥ 1)`,
    );
  }
}
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s (checksum ${sink & 0xff})`);
process.exitCode = ok ? 0 : 1;
