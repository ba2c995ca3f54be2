/**
 * HTTP benchmark of the built Twofold API against a bare baseline, in the same run, on the same data.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:api
 *   npm run bench:api -- --seconds=10 --warmup=2 --connections=50 --only=<scenario> --explain --build
 *   (also: npx ts-node tools/bench/api/bench-api.ts [flags]; `npm run bench` runs it after the OTP bench)
 *
 * --seconds measured run per side (10), --warmup before it (2), --connections (50; POST /users always
 * uses 20), --only one scenario or a comma-separated list, --explain adds the query plans of the day pages, --build rebuilds the
 * bundles first (else they are built only when missing; a note says when a source is newer), --profile runs
 * the Twofold API under `node --cpu-prof` and prints where its CPU time went (the profile file is kept in the temp folder),
 * --rounds=N measures both sides N times in turn per scenario and prints medians (ratios move by about
 * ±0.08 between single runs on this 2-core machine, which the load generator shares with both servers),
 * --load=wrk generates the GET scenarios' load with wrk instead of autocannon (wrk-load.ts), --instructions[=N]
 * counts the CPU instructions per answer under callgrind instead of running loads (instruction-counts.ts),
 * --stdout=tty runs the Twofold API on a pseudo-terminal (as `npm start` in a terminal: pretty log
 * lines, one write each) instead of a pipe, --skip-latency leaves out the runs below saturation (step 5), --compare=<main.js of another API build>
 * runs that build too (a copy of dist/apps/api from before a change), on the same data, measured after
 * Twofold in odd rounds and before it in even ones (the slot right after the baseline cost `/ra` 7-10 %
 * more CPU per answer, whichever build held it): the A/B pair of one change in one run, printed as its own table (the token
 * users are then shared out in thirds).
 * --node=… the Node.js of both servers: by default the one the container image runs (the Dockerfile's
 * NODE_IMAGE), fetched once from the npm registry; --compare-node=… another one for the --compare build.
 *
 * What it does:
 * 1. Creates a database `twofold_bench_<random>` on DATABASE_URL's server (without DATABASE_URL, on an
 *    embedded PostgreSQL started in a temporary directory), starts the built API on it (its migrations
 *    make the schema) with the production default `LOG_LEVEL=info` (one JSON line per request; its
 *    stdout is piped to this process and discarded: logging is part of the cost measured), provisions
 *    an account with the CLI (`--licenses 200000 --enable-api`) and a resource through the API.
 * 2. Seeds through PostgreSQL's bulk paths, not the API (about 15 s here): 100 000 users (`user000000`
 *    … `user099999`; some in groups, with phones, with custom fields), 500 of them (every 200th) with an
 *    HotpToken whose secret is encrypted exactly as the API stores it (SecretCipher, purpose
 *    'authenticator.secret', the API's SECRET_ENCRYPTION_KEY; one INSERT from here), then 1 000 000
 *    journal events (a quarter of them `object=User`) and 1 000 000 access requests (75 % Granted,
 *    15 % Denied, 10 % Expired) on the day before yesterday (UTC, a settled day), each by INSERT … SELECT … generate_series on its own
 *    connection, in parallel, with the table's secondary indexes dropped and built again afterwards from
 *    their own definitions (and foreign-key triggers off when connected as a superuser); then VACUUM
 *    ANALYZE (a past day is all-visible, as autovacuum would leave it).
 * 3. Starts tools/bench/api/baseline-server.ts (node:http + pg, no framework; what it does per call is
 *    described at its top) on the same database with the same key, as a child process.
 * 4. Per scenario, baseline then Twofold: a probe (one pass of a connection's requests with fetch: the
 *    answers must have the same keys, the GET answers must be equal; for /ra also a replayed code and a
 *    code beyond the look-ahead, which must be Denied), a warm-up, then the measured run, with
 *    autocannon as a library. Every answer is checked in autocannon's onResponse; a wrong one is
 *    counted, never just timed. After each run the bench waits until PostgreSQL has finished the
 *    requests autocannon abandoned, so they do not slow down the next run. The requests POST
 *    /access/requests leaves awaiting stay for `/ra` and `/ra + /ra/challenge`, then are written Expired
 *    before the next scenario (AMID_AWAITING_REQUESTS), not by the API's sweep in the middle of one.
 *    POST /access/requests/ra sends a fresh valid HOTP code every time: each connection owns disjoint
 *    token users (a user's codes are never in flight twice) and the bench keeps each user's counter;
 *    the baseline and Twofold use separate halves of the 500 token users, so both start from counter 0.
 *    `/ra + /ra/challenge` chains the two calls per connection: its rate is pairs per second.
 * 5. Latency below saturation: per scenario, each side is then driven at half of the baseline's
 *    closed-loop answer rate (the same offered rate for both, autocannon's overallRate: an open loop, so
 *    a request that waited for its turn counts its wait), warm-up then measured run. A closed loop of 50
 *    connections at saturation makes p99 about 50 / rate on any server: that figure measures the
 *    machine, this one measures us.
 * 6. Prints a table (rates, ratio, autocannon's latency percentiles of the answers received, wrong
 *    answers), the table below saturation, the targets with PASS/FAIL (every scenario: Twofold's rate
 *    ≥ 0.80 of the baseline's, CPU per answer ≤ 1.5× the baseline's, p99 below saturation ≤ 1.5× the
 *    baseline's; POST /users also ≥ 500 users/s; no wrong answer, the same answers), and with --explain the EXPLAIN (ANALYZE, BUFFERS) of the SQL
 *    each server sends for the journal and history day pages, for one /ra + /ra/challenge pair and for
 *    one POST /users, recorded on the wire (a second instance of each server is started behind a small
 *    recording proxy and asked once), each call's statements listed in order first. Exits 1 when a
 *    target is missed.
 * The database is dropped at the end, also after a failure or Ctrl-C.
 *
 * Scenarios (--only=<id>[,<id>…]): users-identity, access-requests, ra, ra-challenge, users-page, journal,
 * history, users-create. The load generator, both servers and PostgreSQL share this machine's CPUs:
 * compare ratios, not absolute numbers, between machines.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { instructionsSinceZero, instrumentation, underCallgrind, VALGRIND, zeroCounts } from './instruction-counts';
import { wrkLoad } from './wrk-load';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, createServer, Server, Socket } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { summariseCpuProfile } from './cpu-profile-summary';
// Relative on purpose: plain ts-node does not resolve the path aliases. Only files that do not pull
// TypeORM or Nest: the cipher, the embedded PostgreSQL starter, the OTP engine, the e2e process helpers.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { generateHotp } from '../../../libs/otp/src';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SecretCipher } from '../../../libs/persistence/src/lib/secret-cipher';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { EmbeddedPostgres, startEmbeddedPostgres } from '../../../libs/persistence/src/lib/embedded-postgres';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { API_BUNDLE, basic, CLI_BUNDLE, cleanEnv, freePort, ROOT, runCli } from '../../../apps/api-e2e/src/processes';

// ---------------------------------------------------------------------------------------------------
// Settings

const args = new Map(
  process.argv.slice(2).map((a) => {
    // the value is all after the first '=': `--node="24.21.0 --max-semi-space-size=64"` keeps its own
    const [k, ...rest] = a.replace(/^--/, '').split('=');
    return [k, rest.length > 0 ? rest.join('=') : 'true'] as const;
  }),
);
const SECONDS = Number(args.get('seconds') ?? 10);
const WARMUP = Number(args.get('warmup') ?? 2);
const CONNECTIONS = Number(args.get('connections') ?? 50);
/** one scenario id, or several separated by commas (run in the usual order) */
const ONLY = args.get('only')?.split(',').filter(Boolean);
const EXPLAIN = args.has('explain');
const BUILD = args.has('build');
/** the Twofold API runs under `node --cpu-prof`; its top entries are printed after the table */
const PROFILE = args.has('profile');
/**
 * Where the Twofold API's stdout goes: `pipe` (read by the bench and discarded, as a log shipper
 * would) or `tty` (a pseudo-terminal through script(1), as `npm start` in a terminal: the log is then
 * pretty-printed and written line by line). The outside harness's figure depends on it.
 */
const TWOFOLD_STDOUT = args.get('stdout') ?? 'pipe';
if (!['pipe', 'tty'].includes(TWOFOLD_STDOUT)) throw new Error(`--stdout=${TWOFOLD_STDOUT}: pipe or tty`);
/** baseline and Twofold measured this many times in turn per scenario; the table shows medians */
const ROUNDS = Number(args.get('rounds') ?? 1);
/**
 * another build of the API (its main.js, e.g. a copy of dist/apps/api from before a change), run beside
 * this one on the same data and measured in the same rounds: the A/B pair of a change in one run
 */
const COMPARE = args.get('compare');
// the profiler costs the profiled process CPU time: one side of an A/B pair would carry it
if (COMPARE && PROFILE) throw new Error('--profile slows the API it profiles: run it without --compare');
/**
 * --node=container|<X.Y.Z>|current|<path to a node binary>[ <option>…]: the Node.js that runs both
 * servers. By default `container`, the version the Dockerfile's NODE_IMAGE pins (what the shipped image
 * runs), fetched once from the npm registry into tmp/node-versions (tools/scripts/node-binary.mjs); when
 * it cannot be fetched the bench says so and uses the Node running it. `current` is the Node running the
 * bench. Options after it go to that Node (e.g. `--node="22.23.3 --experimental-async-context-frame"`).
 * --compare-node=… the same for the --compare build only: the A/B pair of a change of runtime.
 */
const NODE = nodeCommand(args.get('node') ?? 'container', args.has('node'));
const COMPARE_NODE = args.has('compare-node') ? nodeCommand(args.get('compare-node') as string, true) : NODE;

function nodeCommand(spec: string, asked: boolean): string[] {
  const [binary, ...options] = spec.split(' ').filter(Boolean);
  if (binary === 'current') return [process.execPath, ...options];
  if (binary === 'container' || /^\d+\.\d+\.\d+$/.test(binary)) {
    const fetched = spawnSync(process.execPath, [join(ROOT, 'tools/scripts/node-binary.mjs'), binary], { encoding: 'utf8' });
    if (fetched.status === 0) return [fetched.stdout.trim(), ...options];
    if (asked) throw new Error(`--node=${binary}: ${fetched.stderr.trim()}`);
    console.log(`the container's Node could not be fetched (${fetched.stderr.trim()}): both servers run on ${process.version}`);
    return [process.execPath, ...options];
  }
  const path = resolve(ROOT, binary);
  const version = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`--node: ${path} does not run: ${version.stderr || version.error}`);
  return [path, ...options];
}
/**
 * --instructions[=N]: instead of the load runs, each scenario's requests are sent one at a time to a
 * second instance of each server run under valgrind's callgrind, and the CPU instructions per answer
 * printed (N counted answers per side, 200 by default, after 5 × N uncounted ones): a figure that does
 * not move with the machine's load (instruction-counts.ts)
 */
const INSTRUCTIONS = args.has('instructions') ? (args.get('instructions') === 'true' ? 200 : Number(args.get('instructions'))) : undefined;
if (INSTRUCTIONS !== undefined && !(Number.isInteger(INSTRUCTIONS) && INSTRUCTIONS >= 1))
  throw new Error('--instructions=N: a count of answers');
/**
 * --load=wrk: the GET scenarios' load generated by wrk (C) instead of autocannon (this Node.js
 * process): the generator's own CPU then takes less of the machine from the servers (wrk-load.ts)
 */
const LOAD = args.get('load') ?? 'autocannon';
if (!['autocannon', 'wrk'].includes(LOAD)) throw new Error(`--load=${LOAD}: autocannon or wrk`);
/** the scenarios wrk can drive: one GET each, no state carried from answer to request */
const WRK_SCENARIOS = ['users-identity', 'users-page', 'journal', 'history'];
/**
 * The scenarios measured amid the requests POST /access/requests left awaiting (about 200 000): a by-id
 * UPDATE of a request was once planned on the partial index of awaiting requests, at a cost that grew
 * with them (STILL_AWAITING in access-requests.repository.ts), so their number is printed for them.
 * Before any other scenario the bench writes them Expired.
 */
const AMID_AWAITING_REQUESTS = ['access-requests', 'ra', 'ra-challenge'];
/** skips the runs at half of the baseline's rate (latency below saturation) */
const SKIP_LATENCY = args.has('skip-latency') || LOAD === 'wrk'; // wrk has no offered rate (wrk2 has)
for (const [name, value] of [
  ['seconds', SECONDS],
  ['warmup', WARMUP],
  ['connections', CONNECTIONS],
  ['rounds', ROUNDS],
] as const) {
  if (!Number.isFinite(value) || value < (name === 'warmup' ? 0 : 1)) throw new Error(`--${name} must be a number (got ${args.get(name)})`);
}

const USERS = 100_000;
const TOKEN_USERS = 500;
const JOURNAL_EVENTS = 1_000_000;
const ACCESS_REQUESTS = 1_000_000;
const LICENSES = 200_000;
/** POST /users runs at this many connections, whatever --connections says (the target is per 20). */
const USER_CREATE_CONNECTIONS = 20;
const LOG_LEVEL = 'info';
/** Every scenario: Twofold's rate at least this share of the baseline's, closed loop at saturation. */
const RATIO_TARGET = 0.8;
/** Every scenario: Twofold's CPU time per answer at most this multiple of the baseline's. */
const CPU_TARGET = 1.5;
/** Every scenario, both sides offered half of the baseline's closed-loop rate: Twofold's p99 at most this multiple of the baseline's. */
const P99_TARGET = 1.5;
/** a response slower than this is a timeout (an error) */
const REQUEST_TIMEOUT_S = 30;

const pad = (n: number) => String(n).padStart(6, '0');
const identityOf = (n: number) => `user${pad(n)}`;
/** Users n with n % 200 === 0 have an HotpToken: 500 of them. */
const TOKEN_STRIDE = USERS / TOKEN_USERS;

// ---------------------------------------------------------------------------------------------------
// Processes: the API and the baseline, their output drained (only a tail is kept, for errors)

class Drained {
  private tail = '';
  bytes = 0;
  push(chunk: Buffer | string): void {
    this.bytes += chunk.length;
    this.tail += chunk.toString();
    if (this.tail.length > 128 * 1024) this.tail = this.tail.slice(-64 * 1024);
  }
  text(): string {
    return this.tail;
  }
}

interface Running {
  name: string;
  child: ChildProcess;
  baseUrl: string;
  output: Drained;
  stop(): Promise<void>;
}

function launch(name: string, command: string[], env: NodeJS.ProcessEnv, port: number): Running {
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = new Drained();
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    name,
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function waitUntil(running: Running, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (running.child.exitCode !== null)
      throw new Error(`${running.name} exited with ${running.child.exitCode}:\n${running.output.text().slice(-4000)}`);
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${running.name} was not ready within ${timeoutMs} ms:\n${running.output.text().slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startTwofold(
  env: NodeJS.ProcessEnv,
  port: number,
  profileDir?: string,
  bundle = API_BUNDLE,
  callgrind = false,
): Promise<Running> {
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const node = [...(bundle === API_BUNDLE ? NODE : COMPARE_NODE), ...profiling, bundle];
  const command = callgrind
    ? underCallgrind(node)
    : TWOFOLD_STDOUT === 'tty'
      ? ['script', '-qfec', node.map((a) => `'${a}'`).join(' '), '/dev/null']
      : node;
  const api = launch(
    bundle === API_BUNDLE ? 'the Twofold API' : `the compared API (${bundle})`,
    command,
    { ...env, PORT: String(port) },
    port,
  );
  await waitUntil(api, async () => (await fetch(`${api.baseUrl}/ping`)).ok, callgrind ? 900_000 : 90_000);
  return api;
}

/** The API's own process: under --stdout=tty the launched process is script(1), the API its child. */
function apiPid(running: Running): number | undefined {
  const pid = running.child.pid;
  if (TWOFOLD_STDOUT !== 'tty' || pid === undefined) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return children[0] ? Number(children[0]) : undefined;
}

async function startBaseline(env: NodeJS.ProcessEnv, port: number, callgrind = false): Promise<Running> {
  const tsNode = join(ROOT, 'node_modules/ts-node/dist/bin.js');
  // under callgrind, not type-checked again (the load run's instance was): the compiler under valgrind takes minutes
  const node = [...NODE, tsNode, ...(callgrind ? ['--transpile-only'] : []), join(__dirname, 'baseline-server.ts')];
  const baseline = launch('the baseline', callgrind ? underCallgrind(node) : node, { ...env, PORT: String(port) }, port);
  await waitUntil(baseline, async () => baseline.output.text().includes('baseline listening on'), callgrind ? 900_000 : 60_000);
  return baseline;
}

// ---------------------------------------------------------------------------------------------------
// Seeding through PostgreSQL's bulk paths

interface Seeded {
  day: string;
  journalUserEvents: number;
  dayRequests: number;
  /** the 500 token users, in identity order: the baseline gets the even ones, Twofold the odd ones */
  tokens: TokenUser[];
}

interface TokenUser {
  identity: string;
  key: Buffer;
  /** the next counter the bench will generate a code for; the server's is at most this */
  counter: number;
}

/** 20 slots of (object, action): User is 5 of them, so `object=User` selects a quarter of a day. */
const JOURNAL_MIX: [string, string][] = [
  ['User', 'Create'],
  ['EnrollmentLink', 'Send'],
  ['AdminPanel', 'SignIn'],
  ['User', 'Update'],
  ['Group', 'Create'],
  ['EnrollmentLink', 'Send'],
  ['Resource', 'Update'],
  ['User', 'Create'],
  ['AdminPanel', 'SignIn'],
  ['Employee', 'Update'],
  ['User', 'Delete'],
  ['EnrollmentLink', 'Send'],
  ['Authenticator', 'Disable'],
  ['Group', 'Update'],
  ['AdminPanel', 'SignIn'],
  ['User', 'Update'],
  ['Resource', 'DisplayResourceSecret'],
  ['Employee', 'Create'],
  ['Api', 'Enable'],
  ['PublicApiSecret', 'Display'],
];

/**
 * A bulk load into `table` on a connection of its own, in one transaction: the table's secondary
 * indexes (those not behind a constraint) are dropped first and built again afterwards from their own
 * definitions (pg_get_indexdef), which is several times faster than maintaining them row by row; as a
 * superuser, foreign-key triggers are skipped too (session_replication_role = replica): the rows
 * reference the account, the resource and existing users by construction. Returns what it took.
 */
async function bulkLoad(databaseUrl: string, table: string, load: (client: Client) => Promise<unknown>): Promise<string> {
  const t0 = performance.now();
  const client = new Client({ connectionString: databaseUrl, application_name: 'twofold-bench-seed' });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    await client.query(`SET maintenance_work_mem = '256MB'`);
    const superuser = (await client.query(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`)).rows[0]?.rolsuper === true;
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
      [table],
    );
    await client.query('BEGIN');
    try {
      if (superuser) await client.query('SET LOCAL session_replication_role = replica');
      for (const index of indexes) await client.query(`DROP INDEX "${index.name.replace(/"/g, '""')}"`);
      const loaded = performance.now();
      await load(client);
      const built = performance.now();
      for (const index of indexes) await client.query(index.definition);
      await client.query('COMMIT');
      return `${table}: rows ${((built - loaded) / 1000).toFixed(1)} s + ${indexes.length} indexes ${((performance.now() - built) / 1000).toFixed(1)} s${superuser ? ' (FK triggers off)' : ''}, ${((performance.now() - t0) / 1000).toFixed(1)} s`;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await client.end();
  }
}

async function seed(
  db: Client,
  databaseUrl: string,
  ids: { accountId: string; resourceId: string; apiKey: string },
  cipher: SecretCipher,
  dayStart: Date,
): Promise<Seeded> {
  const timings: string[] = [];
  const step = async (label: string, work: () => Promise<unknown>) => {
    const t0 = performance.now();
    await work();
    timings.push(`${label} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const { accountId, resourceId, apiKey } = ids;
  const started = performance.now();
  await db.query('SET synchronous_commit = off');
  await db.query(`SET maintenance_work_mem = '256MB'`);

  await step(`${USERS} users`, async () => {
    await db.query(
      // the identities are lower-case ASCII, so each one is its own key (libs/domain identity-key.ts)
      `INSERT INTO users (account_id, identity, identity_key, name, email, is_locked, source, created_at, last_login)
       SELECT $1, 'user' || lpad(g::text, 6, '0'), 'user' || lpad(g::text, 6, '0'), 'User ' || g, 'user' || lpad(g::text, 6, '0') || '@bench.test', false, 'Api',
              $2::timestamptz + g * interval '1 second', NULL
         FROM generate_series(0, $3 - 1) g`,
      [accountId, new Date(dayStart.getTime() - 30 * 86_400_000), USERS],
    );
    await db.query(`CREATE TEMP TABLE bench_users (n int PRIMARY KEY, id uuid NOT NULL)`);
    await db.query(
      `INSERT INTO bench_users SELECT substr(identity, 5)::int, id FROM users WHERE account_id = $1 AND identity ~ '^user[0-9]{6}$'`,
      [accountId],
    );
    await db.query('ANALYZE bench_users');
  });

  await step('groups, phones, custom fields', async () => {
    await db.query(
      `INSERT INTO groups (account_id, name, system, created_at) SELECT $1, name, false, now() FROM unnest(ARRAY['VPN', 'Staff', 'Contractors']) name`,
      [accountId],
    );
    await db.query(
      `INSERT INTO user_groups (user_id, group_id, account_id)
       SELECT u.id, g.id, $1 FROM bench_users u JOIN groups g ON g.account_id = $1
        WHERE (g.name = 'VPN' AND u.n % 10 = 0) OR (g.name = 'Staff' AND u.n % 25 = 0) OR (g.name = 'Contractors' AND u.n % 10 = 3)`,
      [accountId],
    );
    await db.query(
      `INSERT INTO phones (account_id, user_id, number, created_at) SELECT $1, id, '+7900' || lpad(n::text, 7, '0'), now() FROM bench_users WHERE n % 7 = 0`,
      [accountId],
    );
    await db.query(
      `INSERT INTO custom_fields (account_id, user_id, name, value)
       SELECT $1, id, f.name, f.name || ' ' || (n % 17) FROM bench_users, (VALUES ('Department'), ('costCenter')) f(name) WHERE n % 13 = 0`,
      [accountId],
    );
  });

  const tokens: TokenUser[] = [];
  await step(`${TOKEN_USERS} HotpTokens (encrypted in Node, one INSERT)`, async () => {
    const numbers: number[] = [];
    const secrets: Buffer[] = [];
    for (let i = 0; i < TOKEN_USERS; i++) {
      const n = i * TOKEN_STRIDE;
      const key = randomBytes(20);
      tokens.push({ identity: identityOf(n), key, counter: 0 });
      numbers.push(n);
      secrets.push(cipher.encrypt('authenticator.secret', key));
    }
    const inserted = await db.query(
      `INSERT INTO authenticators (account_id, user_id, kind, name, secret_enc, private_id_enc, algorithm, digits, hotp_counter, last_time_step, created_at)
       SELECT $1, u.id, 'HotpToken', 'Bench token ' || t.n, t.secret, NULL, 'SHA1', 6, 0, NULL, now()
         FROM unnest($2::int[], $3::bytea[]) AS t(n, secret) JOIN bench_users u ON u.n = t.n`,
      [accountId, numbers, secrets],
    );
    if (inserted.rowCount !== TOKEN_USERS) throw new Error(`inserted ${inserted.rowCount} authenticators, not ${TOKEN_USERS}`);
  });

  // The two big tables load in parallel, each on its own connection, through bulkLoad.
  const journalLoad = async (client: Client) =>
    client.query(
      `WITH mix(k, object, action) AS (SELECT k - 1, o, a FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS x(o, a, k))
       INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields)
       SELECT $1, $2::timestamptz + ((g::bigint * 86399999) / ($3 - 1)) * interval '1 millisecond', m.object, m.action,
              CASE WHEN m.object IN ('AdminPanel', 'Employee') THEN 'owner@bench.test' ELSE $6 END,
              g % 23 <> 0,
              CASE WHEN m.object IN ('User', 'EnrollmentLink', 'Authenticator')
                   THEN jsonb_build_object('UserIdentity', 'user' || lpad((g % 100000)::text, 6, '0'))
                   WHEN m.object IN ('Group', 'Resource') THEN jsonb_build_object('Name', 'VPN')
                   ELSE '{}'::jsonb END
         FROM generate_series(0, $3 - 1) g JOIN mix m ON m.k = (g * 7) % 20`,
      [accountId, dayStart, JOURNAL_EVENTS, JOURNAL_MIX.map(([object]) => object), JOURNAL_MIX.map(([, action]) => action), apiKey],
    );
  const requestsLoad = async (client: Client) => {
    await client.query(
      `CREATE TEMP TABLE bench_users AS SELECT substr(identity, 5)::int AS n, id FROM users WHERE account_id = $1 AND identity ~ '^user[0-9]{6}$'`,
      [accountId],
    );
    await client.query('ALTER TABLE bench_users ADD PRIMARY KEY (n)');
    await client.query('ANALYZE bench_users');
    return client.query(
      `INSERT INTO access_requests (account_id, resource_id, user_id, identity, language, callback_action, callback_target, channel, status,
                                    failed_attempts, created_at, granted_at, authenticator, ip, remote_host)
       SELECT $1, $2, u.id, 'user' || lpad(u.n::text, 6, '0'), CASE WHEN s.g % 3 = 0 THEN 'en' ELSE 'ru' END,
              CASE WHEN s.page THEN 'https://client.test/back' END, CASE WHEN s.page THEN '_self' END,
              CASE WHEN s.page THEN 'page' ELSE 'ra' END, s.status,
              CASE WHEN s.status = 'Denied' THEN 1 + s.g % 5 ELSE 0 END, s.created_at,
              CASE WHEN s.status = 'Granted' THEN s.created_at + interval '7 seconds' END,
              CASE WHEN s.status = 'Granted' THEN CASE WHEN s.g % 2 = 0 THEN 'Totp' ELSE 'HotpToken' END END,
              s.ip, s.ip
         FROM (SELECT g, g % 10 < 7 AS page,
                      $3::timestamptz + ((g::bigint * 86399999) / ($4 - 1)) * interval '1 millisecond' AS created_at,
                      CASE WHEN (g * 13) % 20 < 15 THEN 'Granted' WHEN (g * 13) % 20 < 18 THEN 'Denied' ELSE 'Expired' END AS status,
                      '10.' || (g % 250) || '.' || ((g / 250) % 250) || '.' || (1 + g % 7) AS ip
                 FROM generate_series(0, $4 - 1) g) s
         JOIN bench_users u ON u.n = (s.g::bigint * 7919) % ${USERS}`,
      [accountId, resourceId, dayStart, ACCESS_REQUESTS],
    );
  };
  await step(`${JOURNAL_EVENTS} journal events and ${ACCESS_REQUESTS} access requests (in parallel)`, () =>
    Promise.all([bulkLoad(databaseUrl, 'journal_events', journalLoad), bulkLoad(databaseUrl, 'access_requests', requestsLoad)]).then(
      (loads) => timings.push(...loads),
    ),
  );

  await step('VACUUM ANALYZE', async () => {
    for (const table of [
      'users',
      'user_groups',
      'groups',
      'phones',
      'custom_fields',
      'authenticators',
      'journal_events',
      'access_requests',
    ]) {
      await db.query(`VACUUM (ANALYZE) ${table}`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const dayEnd = new Date(dayStart.getTime() + 86_400_000);
  const journalUserEvents = Number(
    (
      await db.query(
        `SELECT count(*) AS n FROM journal_events WHERE account_id = $1 AND event_date >= $2 AND event_date < $3 AND object = 'User'`,
        [accountId, dayStart, dayEnd],
      )
    ).rows[0].n,
  );
  const dayRequests = Number(
    (
      await db.query(`SELECT count(*) AS n FROM access_requests WHERE account_id = $1 AND created_at >= $2 AND created_at < $3`, [
        accountId,
        dayStart,
        dayEnd,
      ])
    ).rows[0].n,
  );
  console.log(`seeded in ${seconds.toFixed(1)} s: ${timings.join(', ')}`);
  return { day: dayStart.toISOString().slice(0, 10), journalUserEvents, dayRequests, tokens };
}

// ---------------------------------------------------------------------------------------------------
// Scenarios: per connection, a loop of steps; each step builds its request and checks its answer

type Method = 'GET' | 'POST';
interface Built {
  method: Method;
  path: string;
  body?: unknown;
}
interface Step {
  /** the next request of this step, or null to start the loop over */
  build(): Built | null;
  /** why the answer is wrong, or null when it is right */
  check(status: number, body: unknown): string | null;
  /** a right answer of this step completes one unit of the scenario's rate (default: every step) */
  unit?: boolean;
}

interface Side {
  name: 'baseline' | 'Twofold' | 'compared';
  baseUrl: string;
  /** this side's token users (disjoint from the other side's) */
  tokens: TokenUser[];
  /** the server's process, whose CPU time per answer is measured */
  pid?: number;
}

/**
 * System calls that read and write (every thread of the process: sockets, pipes, files) so far, from
 * /proc/<pid>/io. On loopback a socket write carries the kernel's TCP work for the receiver too, so a
 * write costs much more than its JavaScript; their count per answer does not move with the machine's load.
 */
function ioCallsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/io`)) return undefined;
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
  return field('syscr') + field('syscw');
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (undefined elsewhere than Linux). */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  const ticksPerSecond = 100; // USER_HZ, 100 on every Linux architecture Node runs on
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

interface Scenario {
  id: string;
  title: string;
  unit: 'req/s' | 'pairs/s' | 'users/s';
  connections: number;
  /** parity of the probe answers: equal (reads of the same rows) or the same keys (writes) */
  parity: 'equal' | 'keys';
  loop(side: Side, connection: number, connections: number): Step[];
  /** checks made once before the load, one request at a time; returns what was wrong */
  refusals?(side: Side, auth: Auth): Promise<string[]>;
  /** a floor on Twofold's own rate, besides the targets every scenario has (RATIO_TARGET, CPU_TARGET, P99_TARGET) */
  targets: { minRate?: number };
}

interface Auth {
  account: string;
  resource: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The answer is the `ra` model with this status (and, Granted, the token that accepted the code). */
function raCheck(status: number, body: unknown, expected: 'Granted' | 'AwaitingAuthentication', identity: string): string | null {
  if (status !== 200) return `HTTP ${status}`;
  if (!isObject(body) || !isObject(body['model'])) return 'no model';
  const model = body['model'];
  if (model['status'] !== expected) return `${String(model['status'])} (${String(body['message'])}) where ${expected} was due`;
  if (body['success'] !== true) return 'success is not true';
  if (model['identity'] !== identity) return 'another identity';
  if (typeof model['id'] !== 'string' || !UUID.test(model['id'])) return 'no request id';
  if (expected === 'Granted' && model['authenticator'] !== 'HotpToken') return `granted by ${String(model['authenticator'])}`;
  return null;
}

/** Each connection owns the token users i, i + connections, …: one of its users is never in flight twice. */
function tokenRotation(side: Side, connection: number, connections: number): () => TokenUser {
  const mine = side.tokens.filter((_, i) => i % connections === connection);
  if (mine.length === 0) throw new Error(`${side.tokens.length} token users cannot give each of ${connections} connections one`);
  let next = 0;
  return () => mine[next++ % mine.length];
}

function nextCode(token: TokenUser): string {
  const code = generateHotp({ secret: token.key, counter: token.counter });
  token.counter += 1;
  return code;
}

/** POST /users identities are unique across connections, runs and sides */
let createdUsers = 0;

function scenarios(auth: Auth, seeded: Seeded, runId: string): Scenario[] {
  const json = (status: number, body: unknown): string | null =>
    status !== 200 ? `HTTP ${status}` : !isObject(body) ? 'not a JSON object' : null;
  return [
    {
      id: 'users-identity',
      title: 'GET /users?identity=',
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'equal',
      targets: {},
      loop: (_side, connection) => {
        let seq = 0;
        let expected = '';
        return [
          {
            build: () => {
              // a fixed walk over the 100 000 users per connection; connection 0 starts at user000000
              // (groups, phone, custom fields, token), which the probe compares
              expected = identityOf((connection * 7919 + seq++ * 104_729) % USERS);
              return { method: 'GET', path: `/users?identity=${expected}` };
            },
            check: (status, body) => {
              const wrong = json(status, body);
              if (wrong || !isObject(body)) return wrong;
              const model = body['model'];
              if (!Array.isArray(model) || model.length !== 1) return `model has ${Array.isArray(model) ? model.length : 'no'} users`;
              return isObject(model[0]) && model[0]['identity'] === expected && body['success'] === true ? null : 'another user';
            },
          },
        ];
      },
    },
    {
      id: 'access-requests',
      title: 'POST /access/requests',
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'keys',
      targets: {},
      loop: (_side, connection) => {
        let seq = 0;
        return [
          {
            build: () => ({
              method: 'POST',
              path: '/access/requests',
              body: {
                identity: identityOf((connection * 4_999 + seq++ * 3_571) % USERS),
                language: 'en',
                callback: { action: 'https://client.test/back', target: '_self' },
              },
            }),
            check: (status, body) => {
              const wrong = json(status, body);
              if (wrong || !isObject(body)) return wrong;
              const model = body['model'];
              if (body['success'] !== true || !isObject(model)) return `refused: ${String(body['message'])}`;
              if (typeof model['id'] !== 'string' || !UUID.test(model['id'])) return 'no request id';
              if (model['status'] !== 'AwaitingAuthentication') return `status ${String(model['status'])}`;
              return typeof model['url'] === 'string' && model['url'].endsWith(`/${model['id']}`) ? null : 'url does not name the request';
            },
          },
        ];
      },
    },
    {
      id: 'ra',
      title: 'POST /access/requests/ra',
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'keys',
      targets: {},
      loop: (side, connection, connections) => {
        const nextUser = tokenRotation(side, connection, connections);
        let identity = '';
        return [
          {
            build: () => {
              const token = nextUser();
              identity = token.identity;
              return { method: 'POST', path: '/access/requests/ra', body: { identity, passCode: nextCode(token), language: 'en' } };
            },
            check: (status, body) => raCheck(status, body, 'Granted', identity),
          },
        ];
      },
      // a wrong grant is a failure too: the code just accepted, sent again, and a code beyond the
      // look-ahead must both be Denied
      refusals: async (side, auth) => {
        const token = side.tokens[side.tokens.length - 1];
        const send = async (passCode: string) => {
          const res = await fetch(`${side.baseUrl}/access/requests/ra`, {
            method: 'POST',
            headers: { authorization: auth.resource, 'content-type': 'application/json' },
            body: JSON.stringify({ identity: token.identity, passCode, language: 'en' }),
          });
          return { status: res.status, body: parse(await res.text()) };
        };
        const wrong: string[] = [];
        const code = nextCode(token);
        const first = await send(code);
        const granted = raCheck(first.status, first.body, 'Granted', token.identity);
        if (granted) wrong.push(`a valid code: ${granted}`);
        for (const [what, passCode] of [
          ['the same code again', code],
          ['a code 50 counters ahead', generateHotp({ secret: token.key, counter: token.counter + 50 })],
        ] as const) {
          const again = await send(passCode);
          const model = isObject(again.body) && isObject(again.body['model']) ? again.body['model'] : {};
          if (again.status !== 200 || model['status'] !== 'Denied')
            wrong.push(`${what} was ${String(model['status'] ?? again.status)}, not Denied`);
        }
        return wrong;
      },
    },
    {
      id: 'ra-challenge',
      title: '/ra + /ra/challenge',
      unit: 'pairs/s',
      connections: CONNECTIONS,
      parity: 'keys',
      targets: {},
      loop: (side, connection, connections) => {
        const nextUser = tokenRotation(side, connection, connections);
        let token: TokenUser | undefined;
        let requestId: string | null = null;
        return [
          {
            build: () => {
              token = nextUser();
              requestId = null;
              return { method: 'POST', path: '/access/requests/ra', body: { identity: token.identity, passCode: null, language: 'en' } };
            },
            check: (status, body) => {
              const wrong = raCheck(status, body, 'AwaitingAuthentication', token?.identity ?? '');
              if (!wrong) requestId = String((body as { model: { id: string } }).model.id);
              return wrong;
            },
            unit: false,
          },
          {
            build: () => {
              if (!token || !requestId) return null;
              return {
                method: 'POST',
                path: '/access/requests/ra/challenge',
                body: { identity: token.identity, challenge: nextCode(token), requestId },
              };
            },
            check: (status, body) => raCheck(status, body, 'Granted', token?.identity ?? ''),
            unit: true,
          },
        ];
      },
    },
    {
      id: 'users-page',
      title: 'GET /users?limit=100',
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'equal',
      targets: {},
      loop: () => [
        {
          build: () => ({ method: 'GET', path: '/users?limit=100' }),
          check: (status, body) => {
            const wrong = json(status, body);
            if (wrong || !isObject(body)) return wrong;
            const model = body['model'];
            return Array.isArray(model) && model.length === 100 && isObject(model[0]) && model[0]['identity'] === identityOf(0)
              ? null
              : 'not the first 100 users';
          },
        },
      ],
    },
    {
      id: 'journal',
      title: `GET /journal?eventDate=…&object=User`,
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'equal',
      targets: {},
      loop: () => [
        {
          build: () => ({ method: 'GET', path: `/journal?eventDate=${seeded.day}&object=User` }),
          check: (status, body) => {
            const wrong = json(status, body);
            if (wrong || !isObject(body)) return wrong;
            const model = body['model'];
            if (!isObject(model) || !Array.isArray(model['data'])) return 'no page';
            if (model['totalElements'] !== seeded.journalUserEvents)
              return `totalElements ${String(model['totalElements'])}, not ${seeded.journalUserEvents}`;
            const data = model['data'] as unknown[];
            return data.length === 100 && data.every((e) => isObject(e) && e['object'] === 'User') ? null : 'not 100 User events';
          },
        },
      ],
    },
    {
      id: 'history',
      title: `GET /access/requests?createdAt=…`,
      unit: 'req/s',
      connections: CONNECTIONS,
      parity: 'equal',
      targets: {},
      loop: () => [
        {
          build: () => ({ method: 'GET', path: `/access/requests?createdAt=${seeded.day}` }),
          check: (status, body) => {
            const wrong = json(status, body);
            if (wrong || !isObject(body)) return wrong;
            const model = body['model'];
            if (!isObject(model) || !Array.isArray(model['data'])) return 'no page';
            if (model['totalElements'] !== seeded.dayRequests)
              return `totalElements ${String(model['totalElements'])}, not ${seeded.dayRequests}`;
            return (model['data'] as unknown[]).length === 100 ? null : 'not 100 requests';
          },
        },
      ],
    },
    {
      id: 'users-create',
      title: `POST /users (${USER_CREATE_CONNECTIONS} connections)`,
      unit: 'users/s',
      connections: USER_CREATE_CONNECTIONS,
      parity: 'keys',
      targets: { minRate: 500 },
      loop: (side) => {
        let identity = '';
        return [
          {
            build: () => {
              identity = `bench-${side.name.toLowerCase()}-${runId}-${++createdUsers}`;
              return { method: 'POST', path: '/users', body: { Identity: identity, Email: `${identity}@bench.test` } };
            },
            check: (status, body) => {
              const wrong = json(status, body);
              if (wrong || !isObject(body)) return wrong;
              const model = body['model'];
              return body['success'] === true && isObject(model) && model['identity'] === identity && typeof model['id'] === 'string'
                ? null
                : 'not the new user';
            },
          },
        ];
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------
// Running one side of one scenario

interface Tally {
  responses: number;
  units: number;
  wrong: number;
  reasons: Map<string, number>;
}
const newTally = (): Tally => ({ responses: 0, units: 0, wrong: 0, reasons: new Map() });

function authorizationFor(path: string, method: Method, auth: Auth): string {
  return method === 'POST' && path.startsWith('/access/') ? auth.resource : auth.account;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function record(tally: Tally, step: Step, status: number, text: string): string | null {
  const reason = step.check(status, parse(text));
  tally.responses += 1;
  if (reason) {
    tally.wrong += 1;
    tally.reasons.set(reason, (tally.reasons.get(reason) ?? 0) + 1);
  } else if (step.unit !== false) {
    tally.units += 1;
  }
  return reason;
}

/** One request with fetch, outside the load runs: its status and body. */
async function sendOne(side: Side, built: Built, auth: Auth): Promise<{ status: number; text: string }> {
  const res = await fetch(`${side.baseUrl}${built.path}`, {
    method: built.method,
    headers: {
      authorization: authorizationFor(built.path, built.method, auth),
      ...(built.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: built.body === undefined ? undefined : JSON.stringify(built.body),
  });
  return { status: res.status, text: await res.text() };
}

/** One pass of connection 0's loop with fetch: the answers, for the parity check; also checks them. */
async function probe(side: Side, scenario: Scenario, auth: Auth): Promise<{ bodies: unknown[]; wrong: string[] }> {
  const bodies: unknown[] = [];
  const wrong: string[] = [];
  const tally = newTally();
  for (const step of scenario.loop(side, 0, scenario.connections)) {
    const built = step.build();
    if (!built) break;
    const { status, text } = await sendOne(side, built, auth);
    bodies.push(parse(text));
    const reason = record(tally, step, status, text);
    if (reason) wrong.push(`${reason}: ${text.slice(0, 300)}`);
  }
  return { bodies, wrong };
}

/** uncounted answers per counted one before the count: V8 has optimised the hot code by then */
const WARM_UP_ANSWERS_PER_COUNTED = 5;

/** `answers` requests of the scenario's loop (connection 0 of 1), one at a time, each answer checked into `tally`. */
async function sendInTurn(side: Side, scenario: Scenario, auth: Auth, answers: number, tally: Tally): Promise<void> {
  const steps = scenario.loop(side, 0, 1);
  for (let i = 0, sent = 0; sent < answers; i = (i + 1) % steps.length) {
    const step = steps[i];
    const built = step.build();
    if (!built) {
      i = -1; // the loop starts over
      continue;
    }
    const { status, text } = await sendOne(side, built, auth);
    record(tally, step, status, text);
    sent += 1;
  }
}

/**
 * --instructions: a second instance of each server under callgrind on the same database; per scenario
 * and side, 5 × N requests uncounted (V8 optimises the hot code), then N counted, one at a time.
 */
async function countInstructions(
  chosen: Scenario[],
  sides: Record<'baseline' | 'Twofold', Side> & { compared?: Side },
  auth: Auth,
  answers: number,
  start: { twofold(port: number): Promise<Running>; baseline(port: number): Promise<Running>; compared?(port: number): Promise<Running> },
): Promise<{ processes: Running[]; wrong: number }> {
  if (!existsSync(VALGRIND)) throw new Error(`--instructions needs valgrind (${VALGRIND}): apt-get install valgrind`);
  console.log(
    `instructions: each server again under valgrind --tool=callgrind; per scenario and side ${WARM_UP_ANSWERS_PER_COUNTED * answers} requests uncounted, then ${answers} counted, one at a time (every thread of the server process)\n`,
  );
  const processes: Running[] = [];
  const counted: { side: Side; running: Running }[] = [];
  for (const [side, startIt] of [
    [sides.baseline, start.baseline],
    [sides.Twofold, start.twofold],
    [sides.compared, start.compared],
  ] as const) {
    if (!side || !startIt) continue;
    process.stdout.write(`starting ${side.name} under callgrind ...`);
    const t0 = performance.now();
    const running = await startIt(await freePort());
    processes.push(running);
    console.log(` ready in ${fmt((performance.now() - t0) / 1000, 0)} s`);
    counted.push({ side: { ...side, baseUrl: running.baseUrl, pid: running.child.pid }, running });
  }
  const rows: {
    scenario: Scenario;
    perAnswer: Map<string, number>;
    allThreads: Map<string, number>;
    wrong: Map<string, number>;
    reasons: string[];
  }[] = [];
  let wrong = 0;
  for (const scenario of chosen) {
    process.stdout.write(`${scenario.title} ...`);
    const perAnswer = new Map<string, number>();
    const allThreads = new Map<string, number>();
    const wrongBySide = new Map<string, number>();
    const reasons: string[] = [];
    for (const { side } of counted) {
      const pid = side.pid as number;
      const tally = newTally();
      await sendInTurn(side, scenario, auth, WARM_UP_ANSWERS_PER_COUNTED * answers, tally);
      zeroCounts(pid);
      instrumentation(pid, true);
      const measuredTally = newTally();
      await sendInTurn(side, scenario, auth, answers, measuredTally);
      const instructions = instructionsSinceZero(pid);
      instrumentation(pid, false);
      perAnswer.set(side.name, instructions.main / answers);
      allThreads.set(side.name, instructions.all / answers);
      wrongBySide.set(side.name, tally.wrong + measuredTally.wrong);
      wrong += tally.wrong + measuredTally.wrong;
      for (const [reason, count] of [...tally.reasons, ...measuredTally.reasons]) reasons.push(`${side.name}: ${count} × ${reason}`);
      process.stdout.write(
        ` ${side.name} ${fmt(instructions.main / answers / 1000)} k (all threads ${fmt(instructions.all / answers / 1000)} k)`,
      );
    }
    console.log('');
    rows.push({ scenario, perAnswer, allThreads, wrong: wrongBySide, reasons });
  }
  const compared = counted.some(({ side }) => side.name === 'compared');
  const header = [
    'scenario',
    'baseline k/answer',
    'Twofold k/answer',
    'Twofold/baseline',
    ...(compared ? ['compared k/answer', 'compared/Twofold'] : []),
    'all threads T/B',
    'wrong',
  ];
  const table = rows.map(({ scenario, perAnswer, allThreads, wrong: w }) => {
    const b = perAnswer.get('baseline') ?? NaN;
    const t = perAnswer.get('Twofold') ?? NaN;
    const c = perAnswer.get('compared');
    return [
      scenario.title,
      fmt(b / 1000),
      fmt(t / 1000),
      fmt(t / b, 2),
      ...(compared ? [fmt((c ?? NaN) / 1000), fmt((c ?? NaN) / t, 2)] : []),
      fmt((allThreads.get('Twofold') ?? NaN) / (allThreads.get('baseline') ?? NaN), 2),
      [...w.values()].join('/'),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  console.log(`\n${header.map((h, i) => h.padEnd(widths[i])).join('  ')}`);
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of table) console.log(r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  '));
  console.log(
    `\nk/answer: thousands of CPU instructions the server's event-loop thread executed per answer (PostgreSQL's work is not in them); all threads T/B: the same ratio with V8's helper threads counted. The CPU target of the load runs is ≤ ${CPU_TARGET}× the baseline's CPU time per answer.`,
  );
  for (const { reasons } of rows) for (const reason of reasons) console.log(`  wrong answer: ${reason}`);
  return { processes, wrong };
}

/** overallRate: requests per second offered across all connections (an open loop); without it, a closed loop */
async function load(
  side: Side,
  scenario: Scenario,
  auth: Auth,
  seconds: number,
  tally: Tally,
  overallRate?: number,
): Promise<autocannon.Result> {
  let connection = 0;
  return autocannon({
    // the request autocannon builds before setupClient replaces it per connection
    url: `${side.baseUrl}/ping`,
    connections: scenario.connections,
    ...(overallRate ? { overallRate } : {}),
    duration: seconds,
    timeout: REQUEST_TIMEOUT_S,
    method: 'GET',
    setupClient: (client) => {
      const steps = scenario.loop(side, connection++, scenario.connections);
      client.setRequests(
        steps.map((step) => ({
          setupRequest: (request: autocannon.Request) => {
            const built = step.build();
            if (!built) return null as unknown as autocannon.Request; // starts the loop over
            const headers: Record<string, string> = { authorization: authorizationFor(built.path, built.method, auth) };
            if (built.body !== undefined) headers['content-type'] = 'application/json';
            return {
              ...request,
              method: built.method,
              path: built.path,
              headers,
              body: built.body === undefined ? undefined : JSON.stringify(built.body),
            };
          },
          onResponse: (status: number, body: string) => {
            record(tally, step, status, body);
          },
        })),
      );
    },
  });
}

interface Measured {
  rate: number;
  /** answers per second of the measured run (pairs count two) */
  answerRate: number;
  /** answers received in the measured run (the percentiles are of these; requests still in flight at the end are not counted) */
  answers: number;
  /** seconds waited after the runs for the server's abandoned requests to finish in PostgreSQL */
  settled: number;
  p50: number;
  p99: number;
  wrong: number;
  errors: number;
  reasons: Map<string, number>;
  probeWrong: string[];
  /** the server process' CPU time (user + system, its own threads only) per answer of the measured run */
  cpuMsPerAnswer: number;
  /** the load generator's CPU time per answer (autocannon: this process; wrk: not measured) */
  loadCpuMsPerAnswer: number;
  /** the server process' read and write system calls per answer (ioCallsOf) */
  ioCallsPerAnswer: number;
}

function perAnswer(before: number | undefined, after: number | undefined, answers: number): number {
  return before !== undefined && after !== undefined && answers > 0 ? (after - before) / answers : NaN;
}

/**
 * Waits until no statement of the benchmark's database is running: autocannon closes its connections
 * at the end of a run, but the server still finishes what they had asked (a slow page can keep
 * PostgreSQL busy for seconds), and that work must not slow down the next run.
 */
async function settle(db: Client): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < 120_000) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
    );
    if (rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  return (performance.now() - t0) / 1000;
}

async function measure(side: Side, scenario: Scenario, auth: Auth, db: Client): Promise<{ measured: Measured; bodies: unknown[] }> {
  const { bodies, wrong: probeWrong } = await probe(side, scenario, auth);
  if (scenario.refusals) probeWrong.push(...(await scenario.refusals(side, auth)));
  if (LOAD === 'wrk') return { bodies, measured: await measureWithWrk(side, scenario, auth, db, probeWrong) };
  let settled = 0;
  if (WARMUP > 0) {
    await load(side, scenario, auth, WARMUP, newTally());
    settled += await settle(db);
  }
  const tally = newTally();
  const cpuBefore = cpuMsOf(side.pid);
  const ioBefore = ioCallsOf(side.pid);
  const loadCpuBefore = process.cpuUsage();
  const result = await load(side, scenario, auth, SECONDS, tally);
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const cpuAfter = cpuMsOf(side.pid);
  const ioAfter = ioCallsOf(side.pid);
  settled += await settle(db);
  const answered = tally.responses > 0;
  return {
    bodies,
    measured: {
      rate: tally.units / result.duration,
      answerRate: tally.responses / result.duration,
      answers: tally.responses,
      p50: answered ? result.latency.p50 : NaN,
      p99: answered ? result.latency.p99 : NaN,
      wrong: tally.wrong,
      errors: result.errors + result.timeouts,
      reasons: tally.reasons,
      probeWrong,
      settled,
      cpuMsPerAnswer: perAnswer(cpuBefore, cpuAfter, tally.responses),
      loadCpuMsPerAnswer: answered ? (loadCpu.user + loadCpu.system) / 1000 / tally.responses : NaN,
      ioCallsPerAnswer: perAnswer(ioBefore, ioAfter, tally.responses),
    },
  };
}

/** The --compare build's run of one round, printed as it ends. */
async function measureCompared(compared: Side, scenario: Scenario, auth: Auth, db: Client): Promise<Measured> {
  const { measured } = await measure(compared, scenario, auth, db);
  process.stdout.write(` compared ${fmt(measured.rate)} ${scenario.unit}`);
  return measured;
}

/** The closed loop of a GET scenario driven by wrk (wrk-load.ts): the same paths in the same order as autocannon's connection 0. */
async function measureWithWrk(side: Side, scenario: Scenario, auth: Auth, db: Client, probeWrong: string[]): Promise<Measured> {
  const steps = scenario.loop(side, 0, 1);
  const paths: string[] = [];
  let authorization = '';
  for (let i = 0; paths.length < 5_000 && i < 10_000; i += 1) {
    const built = steps[i % steps.length].build();
    if (!built) break;
    if (built.method !== 'GET') throw new Error(`--load=wrk drives GET scenarios only (${scenario.id} sends ${built.method})`);
    paths.push(built.path);
    authorization = authorizationFor(built.path, built.method, auth);
  }
  let settled = 0;
  if (WARMUP > 0) {
    await wrkLoad(side.baseUrl, paths, authorization, scenario.connections, WARMUP);
    settled += await settle(db);
  }
  const cpuBefore = cpuMsOf(side.pid);
  const ioBefore = ioCallsOf(side.pid);
  const result = await wrkLoad(side.baseUrl, paths, authorization, scenario.connections, SECONDS);
  const cpuAfter = cpuMsOf(side.pid);
  const ioAfter = ioCallsOf(side.pid);
  settled += await settle(db);
  const reasons = new Map<string, number>();
  if (result.failed > 0) reasons.set('a status other than 2xx/3xx, or a connection error (wrk)', result.failed);
  return {
    rate: result.requests / result.duration,
    answerRate: result.requests / result.duration,
    answers: result.requests,
    p50: result.p50,
    p99: result.p99,
    wrong: result.failed,
    errors: 0,
    reasons,
    probeWrong,
    settled,
    cpuMsPerAnswer: perAnswer(cpuBefore, cpuAfter, result.requests),
    loadCpuMsPerAnswer: NaN,
    ioCallsPerAnswer: perAnswer(ioBefore, ioAfter, result.requests),
  };
}

interface BelowSaturation {
  /** requests per second offered to each side: half of the baseline's closed-loop answer rate */
  offered: number;
  baseline: { p50: number; p99: number; answerRate: number; wrong: number; errors: number };
  twofold: { p50: number; p99: number; answerRate: number; wrong: number; errors: number };
}

/**
 * Latency below saturation: one side driven at a fixed offered rate (autocannon's overallRate, an open
 * loop whose latencies count the time a request waited for its turn), after a warm-up at that rate. In a
 * closed loop at saturation p99 is about connections / rate on any server: it measures the machine.
 */
async function measureAtRate(side: Side, scenario: Scenario, auth: Auth, db: Client, offered: number) {
  if (WARMUP > 0) {
    await load(side, scenario, auth, WARMUP, newTally(), offered);
    await settle(db);
  }
  const tally = newTally();
  const result = await load(side, scenario, auth, SECONDS, tally, offered);
  await settle(db);
  const answered = tally.responses > 0;
  return {
    p50: answered ? result.latency.p50 : NaN,
    p99: answered ? result.latency.p99 : NaN,
    answerRate: tally.responses / result.duration,
    wrong: tally.wrong,
    errors: result.errors + result.timeouts,
  };
}

/**
 * Several rounds of one side as one: the median of the rates, latencies and CPU per answer (rounds
 * alternate with the other side, so a passing disturbance of the machine moves one round, not the
 * verdict); answers, wrong answers and errors added up, every reason kept.
 */
function medianOfRounds(rounds: Measured[]): Measured {
  const median = (values: number[]) => {
    const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
    if (sorted.length === 0) return NaN;
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const reasons = new Map<string, number>();
  for (const round of rounds) for (const [reason, count] of round.reasons) reasons.set(reason, (reasons.get(reason) ?? 0) + count);
  return {
    rate: median(rounds.map((r) => r.rate)),
    answerRate: median(rounds.map((r) => r.answerRate)),
    answers: sum(rounds.map((r) => r.answers)),
    settled: sum(rounds.map((r) => r.settled)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    wrong: sum(rounds.map((r) => r.wrong)),
    errors: sum(rounds.map((r) => r.errors)),
    reasons,
    probeWrong: rounds.flatMap((r) => r.probeWrong),
    cpuMsPerAnswer: median(rounds.map((r) => r.cpuMsPerAnswer)),
    loadCpuMsPerAnswer: median(rounds.map((r) => r.loadCpuMsPerAnswer)),
    ioCallsPerAnswer: median(rounds.map((r) => r.ioCallsPerAnswer)),
  };
}

// ---------------------------------------------------------------------------------------------------
// Parity of the answers

/** Differences of the key sets, recursively (arrays: their first elements). */
function keyDifferences(a: unknown, b: unknown, path = '$'): string[] {
  if (Array.isArray(a) && Array.isArray(b)) return a.length > 0 && b.length > 0 ? keyDifferences(a[0], b[0], `${path}[0]`) : [];
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    const out: string[] = [];
    for (const k of ka) if (!(k in b)) out.push(`${path}.${k} only in the baseline's`);
    for (const k of kb) if (!(k in a)) out.push(`${path}.${k} only in Twofold's`);
    for (const k of ka) if (k in b) out.push(...keyDifferences(a[k], b[k], `${path}.${k}`));
    return out;
  }
  if (a === null || b === null) return [];
  return typeof a === typeof b && Array.isArray(a) === Array.isArray(b)
    ? []
    : [`${path}: ${JSON.stringify(a)?.slice(0, 60)} vs ${JSON.stringify(b)?.slice(0, 60)}`];
}

function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} vs ${b.length} items`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
}

function parity(scenario: Scenario, baseline: unknown[], twofold: unknown[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(baseline.length, twofold.length); i++) {
    out.push(...keyDifferences(baseline[i], twofold[i]));
    if (scenario.parity === 'equal') {
      const d = firstDifference(baseline[i], twofold[i]);
      if (d) out.push(`answers differ at ${d}`);
    }
  }
  return [...new Set(out)];
}

// ---------------------------------------------------------------------------------------------------
// --explain: the SQL Twofold sends, recorded by a proxy between a second API process and PostgreSQL

interface Captured {
  sql: string;
  params: (string | Buffer | null)[];
}

/** Reads the frontend messages of one connection: Parse/Bind (extended protocol) and Query (simple). */
function frontendReader(onStatement: (statement: Captured) => void): (chunk: Buffer) => void {
  let buffer = Buffer.alloc(0);
  let started = false;
  const prepared = new Map<string, string>();
  const cString = (b: Buffer, at: number): [string, number] => {
    const end = b.indexOf(0, at);
    return [b.toString('utf8', at, end), end + 1];
  };
  const onMessage = (type: string, body: Buffer) => {
    if (type === 'Q') onStatement({ sql: cString(body, 0)[0], params: [] });
    else if (type === 'P') {
      const [name, at] = cString(body, 0);
      prepared.set(name, cString(body, at)[0]);
    } else if (type === 'B') {
      const [name, afterName] = cString(body, cString(body, 0)[1]);
      let at = afterName;
      const formatCount = body.readInt16BE(at);
      const formats: number[] = [];
      for (let i = 0; i < formatCount; i++) formats.push(body.readInt16BE(at + 2 + 2 * i));
      at += 2 + 2 * formatCount;
      const count = body.readInt16BE(at);
      at += 2;
      const params: (string | Buffer | null)[] = [];
      for (let i = 0; i < count; i++) {
        const length = body.readInt32BE(at);
        at += 4;
        if (length < 0) {
          params.push(null);
          continue;
        }
        const raw = body.subarray(at, at + length);
        at += length;
        const binary = (formats.length === 1 ? formats[0] : (formats[i] ?? 0)) === 1;
        params.push(binary ? Buffer.from(raw) : raw.toString('utf8'));
      }
      onStatement({ sql: prepared.get(name) ?? '', params });
    }
  };
  return (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (!started) {
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        buffer = buffer.subarray(length);
        // SSLRequest and GSSENCRequest come before the real startup message
        if (code !== 80877103 && code !== 80877104) started = true;
        continue;
      }
      if (buffer.length < 5) return;
      const length = buffer.readInt32BE(1);
      if (buffer.length < 1 + length) return;
      onMessage(String.fromCharCode(buffer[0]), buffer.subarray(5, 1 + length));
      buffer = buffer.subarray(1 + length);
    }
  };
}

function recordingProxy(target: URL, onStatement: (statement: Captured) => void): Promise<{ server: Server; port: number }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const read = frontendReader(onStatement);
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

interface ExplainedCall {
  title: string;
  /** the statements shown are those naming this table */
  table: string;
  /** makes the call(s) against this base URL */
  run(baseUrl: string): Promise<void>;
}

/** The calls --explain records: the two day pages, one /ra + /ra/challenge pair with a fresh code, and one POST /users. */
function explainedCalls(auth: Auth, seeded: Seeded, token: TokenUser): ExplainedCall[] {
  const post = async (baseUrl: string, path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: auth.resource, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return parse(await res.text());
  };
  const get = async (baseUrl: string, path: string) =>
    void (await (await fetch(`${baseUrl}${path}`, { headers: { authorization: auth.account } })).text());
  return [
    {
      title: `GET /journal?eventDate=${seeded.day}&object=User`,
      table: 'journal_events',
      run: (baseUrl) => get(baseUrl, `/journal?eventDate=${seeded.day}&object=User`),
    },
    {
      title: `GET /access/requests?createdAt=${seeded.day}`,
      table: 'access_requests',
      run: (baseUrl) => get(baseUrl, `/access/requests?createdAt=${seeded.day}`),
    },
    {
      title: `POST /access/requests/ra {passCode: null} + /ra/challenge (${token.identity})`,
      table: 'access_requests',
      run: async (baseUrl) => {
        const first = await post(baseUrl, '/access/requests/ra', { identity: token.identity, passCode: null, language: 'en' });
        const requestId = isObject(first) && isObject(first['model']) ? first['model']['id'] : null;
        await post(baseUrl, '/access/requests/ra/challenge', { identity: token.identity, challenge: nextCode(token), requestId });
      },
    },
    {
      title: 'POST /users',
      table: 'users',
      run: async (baseUrl) => {
        // each server's own: the baseline must not find the identity Twofold created
        const identity = `explain-${randomBytes(6).toString('hex')}`;
        const res = await fetch(`${baseUrl}/users`, {
          method: 'POST',
          headers: { authorization: auth.account, 'content-type': 'application/json' },
          body: JSON.stringify({ Identity: identity, Email: `${identity}@bench.test` }),
        });
        await res.text();
      },
    },
  ];
}

/**
 * Starts a second instance of a server behind the recording proxy, makes each call once and prints the
 * EXPLAIN (ANALYZE, BUFFERS) of the statements it sent that name the call's table, each in a transaction
 * rolled back (an UPDATE among them must not change anything; by then it finds its row already
 * decided, but the plan and what it scanned are the same).
 */
async function explainCalls(
  who: string,
  start: (databaseUrl: string, port: number) => Promise<Running>,
  databaseUrl: string,
  calls: ExplainedCall[],
  db: Client,
): Promise<void> {
  let recording: Captured[] | null = null;
  const proxy = await recordingProxy(new URL(databaseUrl), (statement) => recording?.push(statement));
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const server = await start(proxied.toString(), await freePort());
  try {
    for (const call of calls) {
      recording = [];
      await call.run(server.baseUrl);
      const statements = recording as Captured[];
      recording = null;
      console.log(
        `\n-- ${who}: ${call.title}: ${statements.length} statements on the wire; EXPLAIN (ANALYZE, BUFFERS) of those naming ${call.table} or a day page function:`,
      );
      // the round trips in order, each by its start: what a call costs in statements, before any plan
      statements.forEach((s, i) => console.log(`  ${i + 1}. ${s.sql.replace(/\s+/g, ' ').trim().slice(0, 110)}`));
      // a day page is a call of its PL/pgSQL function: its EXPLAIN shows the call (time and buffers), not the plan inside
      for (const statement of statements.filter((s) => s.sql.includes(call.table) || s.sql.includes('_day_page_'))) {
        console.log(
          `\n${statement.sql.replace(/\s+/g, ' ').trim()}\n  params: ${JSON.stringify(statement.params.map((p) => (Buffer.isBuffer(p) ? `<${p.length} bytes>` : p)))}`,
        );
        await db.query('BEGIN');
        try {
          const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
          console.log(plan.rows.map((row) => `  ${String(row['QUERY PLAN'])}`).join('\n'));
        } catch (error) {
          console.log(`  (not explained: ${String(error)})`);
        } finally {
          await db.query('ROLLBACK');
        }
      }
    }
  } finally {
    await server.stop();
    proxy.server.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// Output

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** --compare: this build (B) against the other build (A), measured in the same rounds. */
function printComparison(rows: { scenario: Scenario; twofold: Measured; baseline: Measured; compared?: Measured }[], bundle: string): void {
  console.log(`\nA/B: A = ${bundle}, B = this build (${API_BUNDLE.replace(ROOT + '/', '')}), same data, same rounds`);
  const header = ['scenario', 'A', 'B', 'B/A', 'A/bare', 'B/bare', 'CPU ms/answer A/B', 'syscalls/answer A/B', 'p99 ms A/B', 'wrong A/B'];
  const lines = rows
    .filter((r) => r.compared)
    .map(({ scenario, twofold: b, baseline: bare, compared }) => {
      const a = compared as Measured;
      return [
        scenario.title,
        fmt(a.rate),
        fmt(b.rate),
        a.rate > 0 ? fmt(b.rate / a.rate, 2) : '-',
        fmt(a.rate / bare.rate, 2),
        fmt(b.rate / bare.rate, 2),
        `${fmt(a.cpuMsPerAnswer, 2)}/${fmt(b.cpuMsPerAnswer, 2)}`,
        `${fmt(a.ioCallsPerAnswer, 1)}/${fmt(b.ioCallsPerAnswer, 1)}`,
        `${fmt(a.p99, 1)}/${fmt(b.p99, 1)}`,
        `${a.wrong + a.probeWrong.length}/${b.wrong + b.probeWrong.length}`,
      ];
    });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
}

/** The runs at half of the baseline's closed-loop rate: both sides offered the same requests per second. */
function printBelowSaturation(rows: { scenario: Scenario; below?: BelowSaturation }[]): void {
  const measured = rows.filter((r) => r.below);
  if (measured.length === 0) return;
  console.log(
    `\nlatency below saturation: both sides offered half of the baseline's closed-loop answers per second (autocannon overallRate)`,
  );
  const header = [
    'scenario',
    'offered req/s',
    'answered B/T',
    'B p50 ms',
    'B p99 ms',
    'T p50 ms',
    'T p99 ms',
    'T/B p99',
    'wrong+errors B/T',
  ];
  const lines = measured.map(({ scenario, below }) => {
    const { offered, baseline: b, twofold: t } = below as BelowSaturation;
    return [
      scenario.title,
      String(offered),
      `${fmt(b.answerRate)}/${fmt(t.answerRate)}`,
      fmt(b.p50, 1),
      fmt(b.p99, 1),
      fmt(t.p50, 1),
      fmt(t.p99, 1),
      fmt(t.p99 / b.p99, 2),
      `${b.wrong + b.errors}/${t.wrong + t.errors}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
}

function printTable(rows: { scenario: Scenario; baseline: Measured; twofold: Measured }[]): void {
  const header = [
    'scenario',
    'unit',
    'baseline',
    'Twofold',
    'ratio',
    'T p50 ms',
    'T p99 ms',
    'B p99 ms',
    'CPU ms/answer B/T',
    'load gen CPU ms/answer B/T',
    'read+write syscalls/answer B/T',
    'answers B/T',
    'wrong B/T',
    'errors B/T',
  ];
  const lines = rows.map(({ scenario, baseline, twofold }) => [
    scenario.title,
    scenario.unit,
    fmt(baseline.rate),
    fmt(twofold.rate),
    baseline.rate > 0 ? fmt(twofold.rate / baseline.rate, 2) : '-',
    fmt(twofold.p50, 1),
    fmt(twofold.p99, 1),
    fmt(baseline.p99, 1),
    `${fmt(baseline.cpuMsPerAnswer, 2)}/${fmt(twofold.cpuMsPerAnswer, 2)}`,
    `${fmt(baseline.loadCpuMsPerAnswer, 2)}/${fmt(twofold.loadCpuMsPerAnswer, 2)}`,
    `${fmt(baseline.ioCallsPerAnswer, 1)}/${fmt(twofold.ioCallsPerAnswer, 1)}`,
    `${baseline.answers}/${twofold.answers}`,
    `${baseline.wrong}/${twofold.wrong}`,
    `${baseline.errors}/${twofold.errors}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log('\n' + line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(line(l));
}

/** The most recently changed source file (not a spec) under these folders of the repository. */
function newestSource(folders: string[]): { path: string; mtimeMs: number } | undefined {
  let newest: { path: string; mtimeMs: number } | undefined;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') visit(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const mtimeMs = statSync(path).mtimeMs;
        if (!newest || mtimeMs > newest.mtimeMs) newest = { path: path.replace(ROOT + '/', ''), mtimeMs };
      }
    }
  };
  for (const folder of folders) if (existsSync(join(ROOT, folder))) visit(join(ROOT, folder));
  return newest;
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  if (BUILD || !existsSync(API_BUNDLE) || !existsSync(CLI_BUNDLE)) {
    console.log('building the api and cli bundles ...');
    const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--projects=api,cli'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' },
    });
    if (build.status !== 0) return 1;
  }

  const stale = newestSource(['apps/api/src', 'apps/cli/src', 'libs']);
  if (stale && stale.mtimeMs > statSync(API_BUNDLE).mtimeMs) {
    console.log(
      `note: ${stale.path} is newer than ${API_BUNDLE.replace(ROOT + '/', '')}: the bundle measured may not have your latest change (--build rebuilds it)\n`,
    );
  }

  const server = process.env['DATABASE_URL'];
  const database = `twofold_bench_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'twofold-bench-'));
  const key = randomBytes(32);
  const processes: Running[] = [];
  let embedded: EmbeddedPostgres | undefined;
  let adminUrl: string | undefined;
  let db: Client | undefined;
  let created = false;

  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const running of processes) await running.stop().catch(() => undefined);
      await db?.end().catch(() => undefined);
      if (adminUrl && created) {
        const admin = new Client({ connectionString: adminUrl });
        try {
          await admin.connect();
          await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
          console.log(`dropped the database ${database}`);
        } catch (error) {
          console.error(`could not drop the database ${database}: ${String(error)}`);
        } finally {
          await admin.end().catch(() => undefined);
        }
      }
      await embedded?.stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping and dropping the database ...`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    if (server) adminUrl = server;
    else {
      embedded = await startEmbeddedPostgres({ dir: join(dataDir, 'postgres'), database: 'postgres' });
      adminUrl = embedded.adminUrl;
    }
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    const version = (await admin.query('SHOW server_version')).rows[0].server_version as string;
    // a server built with LLVM compiles statements whose estimated cost passes its thresholds: a generic
    // plan priced far above its real work was compiled on every call there (migration 1767000000000)
    const jit = (await admin.query(`SELECT pg_jit_available() AND current_setting('jit')::boolean AS jit`)).rows[0].jit as boolean;
    await admin.query(`CREATE DATABASE ${database}`);
    created = true;
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    const databaseUrl = url.toString();

    const twofoldPort = await freePort();
    // ACCESS_REQUESTS_PER_MINUTE is left at its default, as `npm start` runs: the account's 200 000 licences
    // give its resource 800 000 requests a minute (4 per licence), above any rate this machine reaches; the
    // throttle costs one statement per 60 requests (the round-trips spec covers it), the baseline has none
    const env = cleanEnv({
      DATABASE_URL: databaseUrl,
      SECRET_ENCRYPTION_KEY: key.toString('hex'),
      TWOFOLD_DATA_DIR: dataDir,
      LOG_LEVEL,
    });
    console.log(`Twofold API benchmark, ${new Date().toISOString()}`);
    console.log(
      `PostgreSQL ${version} (${server ? "DATABASE_URL's server" : 'embedded'}; JIT ${jit ? 'on' : 'off or not built in'}), database ${database}`,
    );
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}; autocannon, both servers and PostgreSQL share it`);
    console.log(
      `Twofold: ${API_BUNDLE.replace(ROOT + '/', '')} (built ${statSync(API_BUNDLE).mtime.toISOString()}), LOG_LEVEL=${LOG_LEVEL} (${TWOFOLD_STDOUT === 'tty' ? 'stdout a pseudo-terminal: pretty lines, one write each' : 'one JSON line per request; stdout piped to the bench and discarded'})`,
    );
    const nodeLine = (command: string[]) =>
      `${spawnSync(command[0], ['--version'], { encoding: 'utf8' }).stdout.trim()}${command.length > 1 ? ` ${command.slice(1).join(' ')}` : ''}`;
    console.log(`Node.js of both servers: ${nodeLine(NODE)}${COMPARE ? `; of the compared build: ${nodeLine(COMPARE_NODE)}` : ''}`);
    console.log(
      'baseline: tools/bench/api/baseline-server.ts, node:http + pg Pool(10), one JSON log line per request (batched), verified credentials cached in memory as the API caches them (60 s)',
    );
    console.log(
      `load: autocannon, ${CONNECTIONS} connections (POST /users: ${USER_CREATE_CONNECTIONS}), ${WARMUP} s warm-up + ${SECONDS} s measured per side, baseline then Twofold per scenario${ROUNDS > 1 ? `, ${ROUNDS} rounds (medians shown)` : ''}\n`,
    );

    const profileDir = PROFILE ? join(dataDir, 'profile') : undefined;
    const twofold = await startTwofold(env, twofoldPort, profileDir);
    processes.push(twofold);
    const provisioned = runCli(
      [
        'account',
        'create',
        '--name',
        'Bench',
        '--owner-email',
        'owner@bench.test',
        '--licenses',
        String(LICENSES),
        '--enable-api',
        '--json',
      ],
      env,
    );
    if (provisioned.code !== 0) throw new Error(`the CLI failed: ${provisioned.stderr}`);
    const { account, api: credentials } = JSON.parse(provisioned.stdout) as {
      account: { id: string };
      api: { key: string; secret: string };
    };
    const accountAuth = basic(credentials.key, credentials.secret);
    const resourceRes = await fetch(`${twofold.baseUrl}/resources`, {
      method: 'POST',
      headers: { authorization: accountAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench resource' }),
    });
    const resourceBody = (await resourceRes.json()) as { model: { id: string; apiKey: string; apiSecret: string } };
    if (!resourceRes.ok) throw new Error(`POST /resources: ${resourceRes.status} ${JSON.stringify(resourceBody)}`);
    const resource = resourceBody.model;
    const auth: Auth = { account: accountAuth, resource: basic(resource.apiKey, resource.apiSecret) };

    db = new Client({ connectionString: databaseUrl, application_name: 'twofold-bench' });
    await db.connect();
    const now = new Date();
    // the day before yesterday: yesterday is not settled (isSettledDay) until 00:15 UTC, and a run in
    // those minutes would count every page's total instead of reading the remembered one
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 2 * 86_400_000);
    const seeded = await seed(
      db,
      databaseUrl,
      { accountId: account.id, resourceId: resource.id, apiKey: credentials.key },
      new SecretCipher(key),
      dayStart,
    );

    const baselineEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SECRET_ENCRYPTION_KEY: key.toString('hex'),
      // the URL Twofold answers (PUBLIC_URL's default): the same access page, on the same database
      ACCESS_URL: `${twofold.baseUrl.replace('127.0.0.1', 'localhost')}/access`,
    };
    const baseline = await startBaseline(baselineEnv, await freePort());
    processes.push(baseline);

    const compared = COMPARE ? await startTwofold(env, await freePort(), undefined, COMPARE) : undefined;
    if (compared) processes.push(compared);
    const shares = compared ? 3 : 2;
    const sides: Record<'baseline' | 'Twofold', Side> & { compared?: Side } = {
      baseline: {
        name: 'baseline',
        baseUrl: baseline.baseUrl,
        tokens: seeded.tokens.filter((_, i) => i % shares === 0),
        pid: baseline.child.pid,
      },
      Twofold: {
        name: 'Twofold',
        baseUrl: twofold.baseUrl,
        tokens: seeded.tokens.filter((_, i) => i % shares === 1),
        pid: apiPid(twofold),
      },
      ...(compared
        ? {
            compared: {
              name: 'compared' as const,
              baseUrl: compared.baseUrl,
              tokens: seeded.tokens.filter((_, i) => i % shares === 2),
              pid: apiPid(compared),
            },
          }
        : {}),
    };
    const all = scenarios(auth, seeded, randomBytes(3).toString('hex'));
    const unknown = ONLY?.filter((id) => !all.some((s) => s.id === id)) ?? [];
    if (unknown.length > 0) throw new Error(`--only=${unknown.join(',')}: no such scenario (${all.map((s) => s.id).join(', ')})`);
    const chosen = (ONLY ? all.filter((s) => ONLY.includes(s.id)) : all).filter((s) => LOAD !== 'wrk' || WRK_SCENARIOS.includes(s.id));
    if (LOAD === 'wrk') console.log(`load: wrk (one thread), GET scenarios only: ${chosen.map((s) => s.id).join(', ')}`);

    if (INSTRUCTIONS !== undefined) {
      const counted = await countInstructions(chosen, sides, auth, INSTRUCTIONS, {
        twofold: (port) => startTwofold(env, port, undefined, API_BUNDLE, true),
        baseline: (port) => startBaseline(baselineEnv, port, true),
        compared: COMPARE ? (port) => startTwofold(env, port, undefined, COMPARE, true) : undefined,
      });
      processes.push(...counted.processes);
      return counted.wrong ? 1 : 0;
    }

    const rows: {
      scenario: Scenario;
      baseline: Measured;
      twofold: Measured;
      parity: string[];
      below?: BelowSaturation;
      compared?: Measured;
    }[] = [];
    for (const scenario of chosen) {
      let awaiting = '';
      if (AMID_AWAITING_REQUESTS.includes(scenario.id)) {
        const { n } = (await db.query(`SELECT count(*)::int AS n FROM access_requests WHERE status = 'AwaitingAuthentication'`)).rows[0];
        awaiting = ` [${n} awaiting requests]`;
      } else {
        // Written Expired here, as the API's sweep would 15 minutes after they were made: that sweep (up to
        // 50 000 rows a minute) otherwise lands inside whichever later scenario runs then, and only on the
        // API's side (the history page 0.72 of bare with p99 2.67x bare's below saturation amid that sweep,
        // 0.79 and 1.51x without it).
        const left = await db.query(
          `UPDATE access_requests SET status = 'Expired', pending_secret_enc = NULL WHERE status = 'AwaitingAuthentication'`,
        );
        if (left.rowCount) {
          // and the dead rows vacuumed now: autovacuum would otherwise clean them up inside a later run
          await db.query('VACUUM ANALYZE access_requests');
          awaiting = ` [${left.rowCount} awaiting requests left by earlier scenarios written Expired and vacuumed first]`;
        }
      }
      process.stdout.write(`${scenario.title}${awaiting} ...`);
      const rounds: { b: Measured; t: Measured; c?: Measured }[] = [];
      let bodies: { baseline: unknown[]; twofold: unknown[] } | undefined;
      for (let round = 1; round <= ROUNDS; round += 1) {
        const b = await measure(sides.baseline, scenario, auth, db);
        process.stdout.write(` baseline ${fmt(b.measured.rate)} ${scenario.unit} ...`);
        // the build measured right after the baseline showed 7-10 % more CPU per answer on /ra than the
        // one after it, whichever build it was: with --compare the two swap places every other round
        const comparedFirst = sides.compared !== undefined && round % 2 === 0;
        let c: Measured | undefined;
        if (comparedFirst && sides.compared) c = await measureCompared(sides.compared, scenario, auth, db);
        const t = await measure(sides.Twofold, scenario, auth, db);
        const waited = b.measured.settled + t.measured.settled;
        process.stdout.write(
          ` Twofold ${fmt(t.measured.rate)} ${scenario.unit}${waited > 2 ? ` (waited ${fmt(waited, 1)} s for abandoned requests to finish between runs)` : ''}`,
        );
        if (!comparedFirst && sides.compared) c = await measureCompared(sides.compared, scenario, auth, db);
        rounds.push({ b: b.measured, t: t.measured, c });
        bodies ??= { baseline: b.bodies, twofold: t.bodies };
      }
      const baselineMedian = medianOfRounds(rounds.map((r) => r.b));
      let below: BelowSaturation | undefined;
      // half of the baseline's answers per second, offered to both sides alike
      const offered = Math.floor(baselineMedian.answerRate / 2);
      if (!SKIP_LATENCY && offered >= 1) {
        process.stdout.write(` | at ${offered} req/s: baseline ...`);
        const b = await measureAtRate(sides.baseline, scenario, auth, db, offered);
        process.stdout.write(` p99 ${fmt(b.p99, 1)} ms, Twofold ...`);
        const t = await measureAtRate(sides.Twofold, scenario, auth, db, offered);
        process.stdout.write(` p99 ${fmt(t.p99, 1)} ms`);
        below = { offered, baseline: b, twofold: t };
      }
      console.log('');
      rows.push({
        scenario,
        baseline: baselineMedian,
        twofold: medianOfRounds(rounds.map((r) => r.t)),
        parity: parity(scenario, bodies?.baseline ?? [], bodies?.twofold ?? []),
        below,
        compared: sides.compared ? medianOfRounds(rounds.map((r) => r.c as Measured)) : undefined,
      });
    }

    printTable(rows);
    printBelowSaturation(rows);
    if (COMPARE) printComparison(rows, COMPARE);
    console.log(
      `\nrates: req/s = answers per second; pairs/s = completed /ra + /ra/challenge pairs per second (two requests each; latencies are per request); users/s = users created per second`,
    );
    console.log(
      `Twofold wrote ${(twofold.output.bytes / 1e6).toFixed(1)} MB of log lines (LOG_LEVEL=${LOG_LEVEL}); the baseline ${(baseline.output.bytes / 1e6).toFixed(1)} MB`,
    );

    let failed = 0;
    console.log('\ntargets');
    const verdict = (name: string, what: string, ok: boolean) => {
      if (!ok) failed += 1;
      console.log(`  ${name.padEnd(40)} ${what.padEnd(46)} ${ok ? 'PASS' : 'FAIL'}`);
    };
    for (const { scenario, baseline: b, twofold: t, parity: differences, below } of rows) {
      const { minRate } = scenario.targets;
      verdict(
        scenario.title,
        `Twofold/baseline ${fmt(t.rate / b.rate, 2)} ≥ ${RATIO_TARGET.toFixed(2)}`,
        b.rate > 0 && t.rate / b.rate >= RATIO_TARGET,
      );
      verdict(
        scenario.title,
        `CPU per answer ${fmt(t.cpuMsPerAnswer / b.cpuMsPerAnswer, 2)}× the baseline's ≤ ${CPU_TARGET}×`,
        t.cpuMsPerAnswer / b.cpuMsPerAnswer <= CPU_TARGET,
      );
      if (below)
        verdict(
          scenario.title,
          `at ${below.offered} req/s: p99 ${fmt(below.twofold.p99, 1)} ms ${fmt(below.twofold.p99 / below.baseline.p99, 2)}× the baseline's ≤ ${P99_TARGET}×`,
          below.baseline.p99 > 0 &&
            below.twofold.p99 / below.baseline.p99 <= P99_TARGET &&
            below.twofold.wrong + below.twofold.errors === 0,
        );
      if (minRate !== undefined) verdict(scenario.title, `Twofold ${fmt(t.rate)} ${scenario.unit} ≥ ${minRate}`, t.rate >= minRate);
      const wrong = b.wrong + t.wrong + b.probeWrong.length + t.probeWrong.length;
      verdict(
        scenario.title,
        `wrong answers ${b.wrong + b.probeWrong.length}/${t.wrong + t.probeWrong.length}, errors ${b.errors}/${t.errors} (B/T)`,
        wrong === 0 && b.errors + t.errors === 0,
      );
      verdict(
        scenario.title,
        `same answer ${scenario.parity === 'equal' ? '(equal)' : '(keys)'} as the baseline`,
        differences.length === 0,
      );
      for (const [side, m] of [
        ['baseline', b],
        ['Twofold', t],
      ] as const) {
        for (const reason of m.probeWrong) console.log(`      ${side} probe: ${reason}`);
        for (const [reason, count] of m.reasons) console.log(`      ${side}: ${count} × ${reason}`);
      }
      for (const d of differences.slice(0, 10)) console.log(`      ${d}`);
    }
    console.log(failed ? `\n${failed} target(s) missed` : '\nevery target met');

    if (profileDir) {
      await twofold.stop(); // the profile is written when the process exits
      const written = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
      const kept = join(tmpdir(), `twofold-api-${Date.now()}.cpuprofile`);
      if (written[0]) {
        copyFileSync(join(profileDir, written[0]), kept);
        console.log(`\nCPU profile of the Twofold API over the whole run (its idle time left out; --only=<one scenario> for one):`);
        console.log(summariseCpuProfile(kept));
      } else console.log('\nthe Twofold API wrote no CPU profile');
    }

    if (EXPLAIN) {
      console.log(
        `\n${(await db.query(`SELECT count(*)::int AS n FROM access_requests WHERE status = 'AwaitingAuthentication'`)).rows[0].n} requests are awaiting a code now`,
      );
      const twofoldCalls = explainedCalls(auth, seeded, sides.Twofold.tokens[0]);
      const baselineCalls = explainedCalls(auth, seeded, sides.baseline.tokens[0]);
      await explainCalls(
        'Twofold',
        (url, port) => startTwofold({ ...env, DATABASE_URL: url, LOG_LEVEL: 'warn' }, port),
        databaseUrl,
        twofoldCalls,
        db,
      );
      await explainCalls(
        'baseline',
        (url, port) => startBaseline({ ...baselineEnv, DATABASE_URL: url }, port),
        databaseUrl,
        baselineCalls,
        db,
      );
    }
    return failed ? 1 : 0;
  } catch (error) {
    for (const running of processes) console.error(`\n${running.name} output (tail):\n${running.output.text().slice(-1500)}`);
    throw error;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
