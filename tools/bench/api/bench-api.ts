/**
 * HTTP benchmark of the built API against a real PostgreSQL: requests per second and latency of the
 * calls a client makes most, side by side with GET /ping (no auth, no database) measured in the
 * same run, so the ratios say what authentication, the database and OTP verification cost.
 *
 *   npx ts-node tools/bench/api/bench-api.ts [--slice-ms=1000] [--rounds=4] [--concurrency=8] [--users=1000]
 *
 * Uses DATABASE_URL when set (a fresh database is created on that server and dropped afterwards),
 * else the API's embedded PostgreSQL in a temporary data directory. Builds the bundles if missing.
 *
 * Noise: contenders are interleaved (round-robin, `rounds` slices of `slice-ms` each) and the best
 * slice counts, so a busy machine slows all of them alike; the median slice is printed too.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
// Relative on purpose: plain ts-node does not resolve path aliases; the e2e helpers start the bundles.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { generateHotp } from '../../../libs/otp/src';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { API_BUNDLE, basic, CLI_BUNDLE, cleanEnv, freePort, ROOT, runCli, startApi } from '../../../apps/api-e2e/src/processes';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = ''] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const SLICE_MS = Number(args.get('slice-ms') ?? 1000);
const ROUNDS = Number(args.get('rounds') ?? 4);
const CONCURRENCY = Number(args.get('concurrency') ?? 8);
const USERS = Number(args.get('users') ?? 1000);
/**
 * Users with an HOTP token for /ra, each used by one connection only: a user's codes are checked one
 * at a time (row lock), and a valid next code per call measures the whole path up to Granted.
 */
const TOKEN_USERS = Math.min(USERS, CONCURRENCY * 8);

interface Call {
  name: string;
  method: string;
  path: string;
  authorization?: string;
  /** the body of the next call of connection `worker` */
  body?: (worker: number) => string;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function send(base: URL, call: { method: string; path: string; authorization?: string; body?: string }): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (call.authorization) headers['Authorization'] = call.authorization;
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(call.body));
    }
    const req = request({ host: base.hostname, port: base.port, method: call.method, path: call.path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    if (call.body !== undefined) req.write(call.body);
    req.end();
  });
}

async function json<T>(base: URL, method: string, path: string, authorization: string, body?: unknown): Promise<T> {
  const res = await send(base, { method, path, authorization, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text) as T;
}

/** One slice: CONCURRENCY loops sending `call` until the slice ends; returns completed calls and latencies. */
async function slice(base: URL, call: Call): Promise<{ perSecond: number; latencies: number[] }> {
  const latencies: number[] = [];
  const end = performance.now() + SLICE_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await send(base, { method: call.method, path: call.path, authorization: call.authorization, body: call.body?.(worker) });
        if (res.status >= 300 || res.text.includes('"status":"Denied"')) throw new Error(`${call.name}: status ${res.status} ${res.text.slice(0, 200)}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { perSecond: (latencies.length * 1000) / (performance.now() - started), latencies };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  if (!existsSync(API_BUNDLE) || !existsSync(CLI_BUNDLE)) {
    console.log('building the api and cli bundles ...');
    const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--projects=api,cli'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' },
    });
    if (build.status !== 0) process.exit(1);
  }

  const server = process.env['DATABASE_URL'];
  const database = `twofold_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'twofold-bench-'));
  const env = cleanEnv({ PORT: String(await freePort()), LOG_LEVEL: 'warn', TWOFOLD_DATA_DIR: dataDir, SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
  if (server) {
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${database}`;
    env['DATABASE_URL'] = url.toString();
  }
  console.log(`PostgreSQL: ${server ? 'DATABASE_URL server' : 'embedded'}; ${CONCURRENCY} concurrent keep-alive connections; ${ROUNDS} rounds of ${SLICE_MS} ms per call`);
  const api = await startApi(env);
  try {
    const base = new URL(api.baseUrl);
    const created = runCli(['account', 'create', '--name', 'Bench', '--owner-email', 'owner@bench.test', '--licenses', String(USERS + 10), '--enable-api', '--json'], env);
    if (created.code !== 0) throw new Error(created.stderr);
    const { api: credentials } = JSON.parse(created.stdout) as { api: { key: string; secret: string } };
    const account = basic(credentials.key, credentials.secret);
    const resource = (await json<{ model: { apiKey: string; apiSecret: string } }>(base, 'POST', '/resources', account, { name: 'Bench resource' })).model;
    const resourceAuth = basic(resource.apiKey, resource.apiSecret);

    process.stdout.write(`seeding ${USERS} users ...`);
    const tokens: { identity: string; key: Buffer; counter: number }[] = [];
    const nextPass = (worker: number) => {
      // connection w uses users w, w + CONCURRENCY, ...: never two calls for one user at once
      const mine = tokens.filter((_, i) => i % CONCURRENCY === worker);
      const token = mine[Math.floor(Math.random() * mine.length)];
      const passCode = generateHotp({ secret: token.key, counter: token.counter });
      token.counter += 1;
      return JSON.stringify({ identity: token.identity, passCode });
    };
    for (let i = 0; i < USERS; i++) {
      const user = (await json<{ model: { id: string; identity: string } }>(base, 'POST', '/users', account, { Identity: `user${i}`, Email: `user${i}@bench.test` })).model;
      if (i < TOKEN_USERS) {
        const key = randomBytes(20);
        tokens.push({ identity: user.identity, key, counter: 0 });
        await json(base, 'POST', `/users/${user.id}/authenticators/hotptoken`, account, { Name: 'Bench token', Key: key.toString('hex') });
      }
    }
    console.log(' done');

    const calls: Call[] = [
      { name: 'GET /ping (baseline)', method: 'GET', path: '/ping' },
      { name: 'GET /users/count', method: 'GET', path: '/users/count', authorization: account },
      { name: 'GET /users?limit=100', method: 'GET', path: '/users?limit=100', authorization: account },
      { name: 'GET /users?identity=', method: 'GET', path: '/users?identity=user500', authorization: account },
      {
        name: 'POST /access/requests',
        method: 'POST',
        path: '/access/requests',
        authorization: resourceAuth,
        body: () => JSON.stringify({ identity: `user${Math.floor(Math.random() * USERS)}`, callback: { action: 'https://client.test/back', target: '_self' } }),
      },
      {
        // the next valid HOTP code of a user: verification, the replay guard's conditional UPDATE,
        // the history row and lastLogin, up to Granted
        name: 'POST /access/requests/ra',
        method: 'POST',
        path: '/access/requests/ra',
        authorization: resourceAuth,
        body: nextPass,
      },
    ];

    const results = new Map<string, { rates: number[]; latencies: number[] }>(calls.map((c) => [c.name, { rates: [], latencies: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const call of calls) {
        const { perSecond, latencies } = await slice(base, call);
        const entry = results.get(call.name);
        entry?.rates.push(perSecond);
        entry?.latencies.push(...latencies);
      }
    }

    const baseline = Math.max(...(results.get(calls[0].name)?.rates ?? [1]));
    console.log('');
    console.log(`${'call'.padEnd(26)} ${'best req/s'.padStart(11)} ${'median'.padStart(9)} ${'× /ping'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
    for (const call of calls) {
      const entry = results.get(call.name);
      if (!entry) continue;
      const rates = [...entry.rates].sort((a, b) => a - b);
      const latencies = [...entry.latencies].sort((a, b) => a - b);
      const best = rates[rates.length - 1];
      console.log(
        `${call.name.padEnd(26)} ${best.toFixed(0).padStart(11)} ${percentile(rates, 50).toFixed(0).padStart(9)} ${(best / baseline).toFixed(2).padStart(8)} ${percentile(latencies, 50).toFixed(1).padStart(8)} ${percentile(latencies, 99).toFixed(1).padStart(8)}`,
      );
    }
  } catch (error) {
    console.error(`API output (tail):\n${api.output().slice(-4000)}`);
    throw error;
  } finally {
    agent.destroy();
    await api.stop();
    if (server) {
      const admin = new Client({ connectionString: server });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
