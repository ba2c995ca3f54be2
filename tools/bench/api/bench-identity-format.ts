/**
 * What `POST /settings/identity-format/apply` costs on a large account, on the built API:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:identity-format -- --users=50000
 *
 * --users the account's users (50 000), --requests-per-user access requests of each renamed or merged
 * user (2), --statement-timeout the API's DATABASE_STATEMENT_TIMEOUT_MS (1500, its default),
 * --no-authenticators leaves the users without an authenticator (by default each has one TOTP app, its
 * secret encrypted as the API stores it: the deletion of a merged user looks for its authenticators).
 *
 * Seeds through PostgreSQL (identity keys computed by the API's identityKey): `userNNNNNN` for
 * every n; one in ten also as `CORP\userNNNNNN`, created later (merged into the plain one); one in ten
 * of the others only as `CORP\soloNNNNNN` (renamed to `soloNNNNNN`), each of those with its requests. Then
 * sets the format to `Login` and applies it through the API, while a second connection samples the
 * statements the API has running every 10 ms (pg_stat_activity): where the time goes, by statement.
 * Prints the answer's status, the time, the renamed and merged counts, and the samples. The database is
 * dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
// Relative on purpose: plain ts-node does not resolve the path aliases (as bench-api.ts does).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { basic, cleanEnv, freePort, runCli, startApi } from '../../../apps/api-e2e/src/processes';
import { openBenchDatabase } from './bench-database';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the keys the API stores
import { identityKey } from '../../../libs/domain/src/lib/identity-key';
// eslint-disable-next-line @nx/enforce-module-boundaries -- secrets encrypted as the API stores them
import { SecretCipher } from '../../../libs/persistence/src/lib/secret-cipher';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = 'true'] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const USERS = Number(args.get('users') ?? 50_000);
const REQUESTS_PER_USER = Number(args.get('requests-per-user') ?? 2);
const STATEMENT_TIMEOUT_MS = Number(args.get('statement-timeout') ?? 1500);
const AUTHENTICATORS = !args.has('no-authenticators');

const pad = (n: number) => String(n).padStart(6, '0');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<number> {
  const database = await openBenchDatabase('twofold_bench_format');
  if (!database) return 1;
  const key = randomBytes(32);
  const env = cleanEnv({
    DATABASE_URL: database.url,
    SECRET_ENCRYPTION_KEY: key.toString('hex'),
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
  const api = await startApi(env);
  const db = new Client({ connectionString: database.url, application_name: 'twofold-bench-format' });
  const sampler = new Client({ connectionString: database.url, application_name: 'twofold-bench-sampler' });
  try {
    const created = runCli(
      [
        'account',
        'create',
        '--name',
        'Format',
        '--owner-email',
        'owner@format.test',
        '--licenses',
        String(2 * USERS),
        '--enable-api',
        '--json',
      ],
      env,
    );
    if (created.code !== 0) throw new Error(`the CLI failed: ${created.stderr}`);
    const parsed = JSON.parse(created.stdout) as { account: { id: string }; api: { key: string; secret: string } };
    const accountId = parsed.account.id;
    const account = basic(parsed.api.key, parsed.api.secret);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${api.baseUrl}${path}`, {
        method,
        headers: { authorization: account, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const resourceId = ((await (await call('POST', '/resources', { Name: 'VPN' })).json()) as { model: { id: string } }).model.id;

    await db.connect();
    await db.query('SET synchronous_commit = off');
    const t0 = performance.now();
    // the plain users first (the older ones: they survive), then the CORP\ spellings
    const identities: string[] = [];
    for (let n = 0; n < USERS; n++) identities.push(n % 10 === 5 ? `CORP\\solo${pad(n)}` : `user${pad(n)}`);
    for (let n = 0; n < USERS; n += 10) identities.push(`CORP\\user${pad(n)}`);
    await db.query(
      `INSERT INTO users (account_id, identity, identity_key, name, email, is_locked, source, created_at)
       SELECT $1, i.identity, i.key, NULL, NULL, false, 'Api', now() - interval '1 day' + i.n * interval '1 millisecond'
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS i(identity, key, n)`,
      [accountId, identities, identities.map(identityKey)],
    );
    await db.query(
      `INSERT INTO access_requests (account_id, resource_id, user_id, identity, language, channel, status, failed_attempts, created_at)
       SELECT $1, $2, u.id, u.identity, 'en', 'ra', 'Granted', 0, now() - interval '2 days' + g * interval '1 second'
         FROM users u, generate_series(1, $3) g WHERE u.account_id = $1 AND u.identity LIKE 'CORP\\%'`,
      [accountId, resourceId, REQUESTS_PER_USER],
    );
    if (AUTHENTICATORS) {
      const cipher = new SecretCipher(key);
      const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE account_id = $1', [accountId]);
      await db.query(
        `INSERT INTO authenticators (account_id, user_id, kind, name, secret_enc, algorithm, digits, created_at)
         SELECT $1, a.user_id, 'Totp', 'Phone', a.secret, 'SHA1', 6, now() FROM unnest($2::uuid[], $3::bytea[]) AS a(user_id, secret)`,
        [accountId, rows.map((row) => row.id), rows.map(() => cipher.encrypt('authenticator.secret', randomBytes(20)))],
      );
      await db.query('VACUUM (ANALYZE) authenticators');
    }
    await db.query('VACUUM (ANALYZE) users');
    await db.query('VACUUM (ANALYZE) access_requests');
    const seeded = performance.now() - t0;
    const corp = identities.filter((identity) => identity.startsWith('CORP\\')).length;
    console.log(
      `seeded ${identities.length} users${AUTHENTICATORS ? ' (each with a TOTP app)' : ''} (${corp} written CORP\\…, each with ${REQUESTS_PER_USER} access requests) in ${seconds(seeded)}`,
    );

    const set = await call('PUT', '/settings/identity-format', { format: 'Login' });
    if (set.status !== 200) throw new Error(`PUT /settings/identity-format: ${set.status} ${await set.text()}`);

    await sampler.connect();
    const samples = new Map<string, number>();
    /** per statement text, the longest time one execution of it was seen running */
    const longest = new Map<string, number>();
    let sampling = true;
    const sampled = (async () => {
      while (sampling) {
        const { rows } = await sampler.query<{ query: string; ms: number }>(
          `SELECT query, extract(epoch FROM clock_timestamp() - query_start) * 1000 AS ms FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'twofold-api' AND state = 'active'`,
        );
        for (const row of rows) {
          const statement = row.query.replace(/\s+/g, ' ').trim().slice(0, 110);
          samples.set(statement, (samples.get(statement) ?? 0) + 1);
          longest.set(statement, Math.max(longest.get(statement) ?? 0, Number(row.ms)));
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    const res = await call('POST', '/settings/identity-format/apply');
    const ms = performance.now() - started;
    sampling = false;
    await sampled;
    const text = await res.text();
    let summary = text.slice(0, 300);
    try {
      const model = (JSON.parse(text) as { model?: { renamed?: unknown[]; merged?: unknown[] } }).model;
      if (model?.renamed && model.merged) summary = `${model.renamed.length} renamed, ${model.merged.length} merges`;
    } catch {
      // the body as it came
    }
    console.log(
      `\nPOST /settings/identity-format/apply on ${identities.length} users (statement timeout ${STATEMENT_TIMEOUT_MS} ms): HTTP ${res.status} in ${seconds(ms)}: ${summary}`,
    );
    const total = [...samples.values()].reduce((a, b) => a + b, 0);
    console.log(
      `\nthe API's running statements, sampled every 10 ms (${total} samples; longest: the longest one execution was seen running):`,
    );
    for (const [statement, count] of [...samples].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(
        `  ${String(count).padStart(5)}  longest ${String(Math.round(longest.get(statement) ?? 0)).padStart(5)} ms  ${statement}`,
      );
    return res.status === 200 ? 0 : 1;
  } finally {
    await sampler.end().catch(() => undefined);
    await db.end().catch(() => undefined);
    await api.stop();
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
