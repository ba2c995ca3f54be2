/**
 * What held approval waits cost: N sign-ins (`/access/requests/ra` with `passCode: "t"`) wait at once
 * for their users' answers in Telegram, on the built API, against the fake Bot API run as a process.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:waits
 *   npm run bench:waits -- --waits=1000 --wait-seconds=20
 *
 * --waits how many sign-ins wait at once (300), --wait-seconds the API's APPROVAL_WAIT_SECONDS (15),
 * --arrival-seconds over how long the sign-ins arrive, evenly spaced (5: a third of the wait, so all
 * are held at once from then on; 0 sends them in the same instant, a burst the pool of 10 does not
 * clear within its 1 s wait, answered 503 in part), --samples requests per latency probe (300).
 *
 * It prints, side by side in one run:
 * - the database connections the API holds while the waits are held (pg_stat_activity by state): a
 *   wait holds none, so the pool stays as idle as before;
 * - `/ping` and `GET /users?identity=` latencies (p50/p99 of sequential requests) before the waits and
 *   while they are held, and their ratio;
 * - the API's resident memory before and while they are held, per wait;
 * - how long each wait lasted (nobody answers: each must end 200 Denied at its bound, never later).
 * Each user gets a fresh Telegram chat: push fatigue allows three pending approvals per user.
 * The database is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
// Relative on purpose: plain ts-node does not resolve the path aliases (as bench-api.ts does).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { basic, cleanEnv, freePort, runCli, startApi } from '../../../apps/api-e2e/src/processes';
import { openBenchDatabase } from './bench-database';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startFakeTelegram } from '../../../apps/api-e2e/src/fake-telegram-process';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = 'true'] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const WAITS = Number(args.get('waits') ?? 300);
const WAIT_SECONDS = Number(args.get('wait-seconds') ?? 15);
const ARRIVAL_SECONDS = Number(args.get('arrival-seconds') ?? 5);
const SAMPLES = Number(args.get('samples') ?? 300);
const FIRST_CHAT = 9_100_000_001;
/** bindings in flight at once: the pool of 10 and two cores are the API's pace, more only queue */
const BIND_CONCURRENCY = Number(args.get('bind-concurrency') ?? 8);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p50/p99 in ms of `count` sequential calls (a closed loop of one: latency, not throughput). */
async function latency(call: () => Promise<Response>, count: number): Promise<{ p50: number; p99: number; failed: number }> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (!res.ok) failed += 1;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), failed };
}

function residentMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function main(): Promise<number> {
  const database = await openBenchDatabase('twofold_bench_waits');
  if (!database) return 1;
  const token = `7100000001:${randomBytes(24).toString('base64url')}`;
  const fake = await startFakeTelegram(token);
  const env = cleanEnv({
    DATABASE_URL: database.url,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    TELEGRAM_BOT_TOKEN: token,
    TELEGRAM_API_URL: fake.url,
    TELEGRAM_UPDATES: 'polling',
    APPROVAL_WAIT_SECONDS: String(WAIT_SECONDS),
    // every wait comes from this one address; a real deployment sees them from many
    MAX_CONNECTIONS_PER_CLIENT: String(WAITS + 100),
    // ACCESS_REQUESTS_PER_MINUTE at its default: 2 requests per wait, under 6 000 a minute up to 3 000 waits
  });
  const api = await startApi(env);
  const observer = new Client({ connectionString: database.url, application_name: 'twofold-bench-observer' });
  try {
    const created = runCli(
      [
        'account',
        'create',
        '--name',
        'Waits',
        '--owner-email',
        'owner@waits.test',
        '--licenses',
        String(WAITS + 10),
        '--enable-api',
        '--json',
      ],
      env,
    );
    if (created.code !== 0) throw new Error(`the CLI failed: ${created.stderr}`);
    const credentials = JSON.parse(created.stdout).api as { key: string; secret: string };
    const account = basic(credentials.key, credentials.secret);
    const call = (path: string, authorization: string, body?: unknown) =>
      fetch(`${api.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const resource = (
      (await (await call('/resources', account, { Name: 'VPN' })).json()) as { model: { apiKey: string; apiSecret: string } }
    ).model;
    const vpn = basic(resource.apiKey, resource.apiSecret);

    // Each user is bound the way a person binds: an access request, its page's Telegram link, and
    // `/start <payload>` from the user's chat, handled by the API's poller — the same rows a real binding
    // writes (the authenticator, its chat, the spent link, the journal entry). One after another this
    // took about 9 minutes for 1 000 users on the busy machine; BIND_CONCURRENCY at a time it is the
    // API's own pace.
    console.log(`binding ${WAITS} users to Telegram chats, ${BIND_CONCURRENCY} at a time ...`);
    const bindingStarted = performance.now();
    const identities = Array.from({ length: WAITS }, (_, i) => `waiter${String(i).padStart(5, '0')}`);
    let next = 0;
    const binder = async () => {
      for (let i = next++; i < WAITS; i = next++) {
        const identity = identities[i];
        const res = await call('/access/requests', vpn, { identity });
        const request = ((await res.json()) as { model?: { url: string } }).model;
        if (!request) throw new Error(`the access request of ${identity} was refused: ${res.status}`);
        const page = await (await fetch(request.url)).text();
        const payload = /start=([A-Za-z0-9_-]+)/.exec(page)?.[1];
        if (!payload) throw new Error(`the access page of ${identity} offered no Telegram link`);
        await fake.send(FIRST_CHAT + i, `/start ${payload}`);
      }
    };
    await Promise.all(Array.from({ length: BIND_CONCURRENCY }, binder));
    await observer.connect();
    for (let bound = 0; bound < WAITS; ) {
      bound = Number((await observer.query(`SELECT count(*) FROM telegram_bindings`)).rows[0].count);
      if (bound < WAITS) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`bound in ${((performance.now() - bindingStarted) / 1000).toFixed(1)} s`);
    const connections = async () =>
      (
        await observer.query<{ application_name: string; state: string; count: string }>(
          `SELECT application_name, coalesce(state, '') AS state, count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1, 2 ORDER BY 1, 2`,
        )
      ).rows.map((row) => `${row.application_name}/${row.state}: ${row.count}`);
    const probe = async () => ({
      ping: await latency(() => fetch(`${api.baseUrl}/ping`), SAMPLES),
      lookup: await latency(() => call(`/users?identity=${identities[0]}`, account), SAMPLES),
    });

    const before = { connections: await connections(), rss: residentMb(api.process.pid), ...(await probe()) };
    const questionsBefore = (await fake.questions()).length;
    console.log(`holding ${WAITS} waits (APPROVAL_WAIT_SECONDS=${WAIT_SECONDS}), arriving over ${ARRIVAL_SECONDS} s ...`);
    const apiLogFrom = api.output().length;
    const started = performance.now();
    let answered = 0;
    const waits = identities.map(async (identity, i) => {
      const due = started + (i * ARRIVAL_SECONDS * 1000) / WAITS;
      if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
      const sent = performance.now();
      const res = await call('/access/requests/ra', vpn, { identity, passCode: 't' });
      const text = await res.text();
      let body: { model?: { status?: string; replyMessage?: string } | null; message?: string | null } = {};
      try {
        body = JSON.parse(text);
      } catch {
        body = { message: text.slice(0, 120) };
      }
      const ms = performance.now() - sent;
      answered += 1;
      return {
        identity,
        at: Date.now(),
        status: res.status,
        decision: body.model?.status,
        said: body.model?.replyMessage ?? body.message ?? '',
        ms,
      };
    });
    // The probes start once every call is held (its question delivered) or answered: a call answered
    // early (refused, undeliverable) sends no question, and the run must still end and say so. Bounded
    // by the wait itself: past it nothing is held any more.
    const deliveryDeadline = started + WAIT_SECONDS * 1000;
    let delivered = 0;
    for (;;) {
      delivered = (await fake.questions()).length - questionsBefore;
      if (delivered + answered >= WAITS || performance.now() >= deliveryDeadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const deliveredMs = performance.now() - started;
    const heldAtProbe = WAITS - answered;
    const during = { connections: await connections(), rss: residentMb(api.process.pid), ...(await probe()) };
    const probedMs = performance.now() - started;
    const heldAfterProbe = WAITS - answered;
    const ended = await Promise.all(waits);
    // past its approval's expiry (the API's clock is this machine's): the wait's own bound, without the
    // time the call queued before its approval was opened
    const expiries = new Map(
      (
        await observer.query<{ identity: string; expires_at: Date }>(
          `SELECT users.identity, approvals.expires_at FROM approvals JOIN users ON users.id = approvals.user_id`,
        )
      ).rows.map((row) => [row.identity, row.expires_at.getTime()]),
    );
    const late = ended
      .filter((w) => expiries.has(w.identity))
      .map((w) => w.at - (expiries.get(w.identity) as number))
      .sort((a, b) => a - b);
    // why a question was not sent (unreachable: the database did not answer the delivery's statements in time)
    const deliveryFailures = (await (await fetch(`${api.baseUrl}/metrics`)).text())
      .split('\n')
      .filter((line) => line.startsWith('twofold_approval_delivery_failures_total{'));
    const apiLog = new Map<string, number>();
    for (const line of api.output().slice(apiLogFrom).split('\n')) {
      if (line.trim() === '') continue;
      let entry: { level?: unknown; msg?: unknown; code?: unknown; status?: unknown; url?: unknown } = {};
      try {
        entry = JSON.parse(line);
      } catch {
        entry = { msg: line };
      }
      const what =
        `${entry.level ?? ''} ${String(entry.msg ?? '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')}${entry.code ? ` code=${entry.code}` : ''}${entry.status ? ` status=${entry.status}` : ''}`.slice(
          0,
          160,
        );
      apiLog.set(what, (apiLog.get(what) ?? 0) + 1);
    }

    const durations = ended.map((w) => w.ms).sort((a, b) => a - b);
    const longest = durations[durations.length - 1];
    const answers = new Map<string, number>();
    const said = new Map<string, number>();
    for (const w of ended) {
      answers.set(`${w.status} ${w.decision}`, (answers.get(`${w.status} ${w.decision}`) ?? 0) + 1);
      const saying = `${w.status} ${w.decision} "${w.said}"`;
      said.set(saying, (said.get(saying) ?? 0) + 1);
    }
    const row = (name: string, a: { p50: number; p99: number; failed: number }, b: { p50: number; p99: number; failed: number }) =>
      `${name.padEnd(26)} ${a.p50.toFixed(1).padStart(8)} ${a.p99.toFixed(1).padStart(8)} ${b.p50.toFixed(1).padStart(8)} ${b.p99.toFixed(1).padStart(8)} ${(b.p99 / a.p99).toFixed(2).padStart(8)}   ${a.failed}/${b.failed}`;
    console.log(`\n${WAITS} approval waits on the built API (LOG_LEVEL=warn), arriving over ${ARRIVAL_SECONDS} s, nobody answering`);
    console.log(
      `${delivered} of ${WAITS} questions delivered to the fake Bot API after ${(deliveredMs / 1000).toFixed(1)} s; probes done ${(probedMs / 1000).toFixed(1)} s after the start`,
    );
    console.log(`calls held: ${heldAtProbe} when the probes started, ${heldAfterProbe} when they ended`);
    console.log(`\nlatency, ${SAMPLES} sequential calls   before (ms)        while held (ms)    p99 ratio   failed`);
    console.log(`${''.padEnd(26)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'p50'.padStart(8)} ${'p99'.padStart(8)}`);
    console.log(row('GET /ping', before.ping, during.ping));
    console.log(row('GET /users?identity=', before.lookup, during.lookup));
    console.log(`\nAPI database connections before:     ${before.connections.join(', ')}`);
    console.log(`API database connections while held: ${during.connections.join(', ')}`);
    console.log(
      `API resident memory: ${before.rss.toFixed(0)} MB before, ${during.rss.toFixed(0)} MB while held: ${(((during.rss - before.rss) * 1024) / WAITS).toFixed(1)} KB per wait`,
    );
    console.log(`answers: ${[...answers].map(([k, n]) => `${n} × ${k}`).join(', ')}`);
    for (const [saying, n] of [...said].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)} × ${saying}`);
    console.log(
      `waits from their own call: shortest ${(durations[0] / 1000).toFixed(2)} s, median ${(percentile(durations, 50) / 1000).toFixed(2)} s, p99 ${(percentile(durations, 99) / 1000).toFixed(2)} s, longest ${(longest / 1000).toFixed(2)} s (bound ${WAIT_SECONDS} s)`,
    );
    if (late.length > 0)
      console.log(
        `answered after their approval's expiry (${late.length} approvals): median ${(percentile(late, 50) / 1000).toFixed(2)} s, p99 ${(percentile(late, 99) / 1000).toFixed(2)} s, latest ${(late[late.length - 1] / 1000).toFixed(2)} s`,
      );
    console.log(`delivery failures: ${deliveryFailures.length > 0 ? deliveryFailures.join(', ') : 'none'}`);
    console.log(`API log lines while the waits ran, by level and message:`);
    for (const [what, n] of [...apiLog].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${String(n).padStart(5)} × ${what}`);
    const busy = during.connections.filter((line) => /^twofold-api\/(?!idle)/.test(line));
    const pass = delivered === WAITS && [...answers.keys()].every((k) => k === '200 Denied') && busy.length === 0;
    console.log(pass ? '\nPASS: every wait ended 200 Denied at its bound; no pool connection was busy while they were held' : '\nFAIL');
    return pass ? 0 : 1;
  } finally {
    await observer.end().catch(() => undefined);
    await api.stop();
    await fake.stop();
    await database.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
