/**
 * What deleting a resource with a long history costs: N access requests of one resource (and as many
 * of another resource, so the table is larger than the history deleted), then, on the built API's schema:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:resource-delete -- --requests=500000
 *
 * 1. the resource row deleted by one statement (its history goes by ON DELETE CASCADE) without the index
 *    `access_requests_resource` (as before migration 1766200000000), in a transaction rolled back;
 * 2. the same statement with the index, rolled back;
 * 3. a resource with no history deleted by one statement without the index, rolled back (the cascade
 *    read every account's requests whatever the resource had);
 * 4. `DELETE /resources/{id}` through the API, with its statement timeout (DATABASE_STATEMENT_TIMEOUT_MS,
 *    1.5 s by default): the history deleted 5 000 requests per statement, then the resource.
 * Figures 1-3 run without a statement timeout, to say how long they take; the API would cancel any
 * statement past its bound (and answer 503). The database is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
// Relative on purpose: plain ts-node does not resolve the path aliases (as bench-api.ts does).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { basic, cleanEnv, freePort, runCli, startApi } from '../../../apps/api-e2e/src/processes';
import { openBenchDatabase } from './bench-database';

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v = 'true'] = a.replace(/^--/, '').split('=');
    return [k, v] as const;
  }),
);
const REQUESTS = Number(args.get('requests') ?? 500_000);
const STATEMENT_TIMEOUT_MS = 1500;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<number> {
  const database = await openBenchDatabase('twofold_bench_delete');
  if (!database) return 1;
  const env = cleanEnv({
    DATABASE_URL: database.url,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
  const api = await startApi(env);
  const db = new Client({ connectionString: database.url, application_name: 'twofold-bench-delete' });
  try {
    const created = runCli(
      ['account', 'create', '--name', 'Delete', '--owner-email', 'owner@delete.test', '--licenses', '100', '--enable-api', '--json'],
      env,
    );
    if (created.code !== 0) throw new Error(`the CLI failed: ${created.stderr}`);
    const parsed = JSON.parse(created.stdout) as { account: { id: string }; api: { key: string; secret: string } };
    const account = basic(parsed.api.key, parsed.api.secret);
    const newResource = async (name: string) => {
      const res = await fetch(`${api.baseUrl}/resources`, {
        method: 'POST',
        headers: { authorization: account, 'content-type': 'application/json' },
        body: JSON.stringify({ Name: name }),
      });
      return ((await res.json()) as { model: { id: string } }).model.id;
    };
    const doomed = await newResource('Doomed');
    const other = await newResource('Other');
    const empty = await newResource('Empty');

    await db.connect();
    const t0 = performance.now();
    await db.query('SET synchronous_commit = off');
    for (const resourceId of [doomed, other]) {
      await db.query(
        `INSERT INTO access_requests (account_id, resource_id, identity, language, channel, status, failed_attempts, created_at)
         SELECT $1, $2, 'user' || (g % 5000), 'en', 'ra', 'Granted', 0, now() - (g || ' seconds')::interval FROM generate_series(1, $3) g`,
        [parsed.account.id, resourceId, REQUESTS],
      );
    }
    await db.query('VACUUM (ANALYZE) access_requests');
    console.log(
      `seeded ${REQUESTS} access requests of the resource deleted and ${REQUESTS} of another one in ${seconds(performance.now() - t0)}`,
    );

    /** One DELETE of the resource row, in a transaction rolled back, without a statement timeout. */
    const oneStatement = async (resourceId: string, withoutIndex: boolean) => {
      await db.query('BEGIN');
      try {
        await db.query('SET LOCAL statement_timeout = 0');
        if (withoutIndex) await db.query('DROP INDEX access_requests_resource');
        const started = performance.now();
        await db.query('DELETE FROM resources WHERE id = $1', [resourceId]);
        return performance.now() - started;
      } finally {
        await db.query('ROLLBACK');
      }
    };
    const verdict = (ms: number) =>
      ms > STATEMENT_TIMEOUT_MS ? `past the ${STATEMENT_TIMEOUT_MS} ms statement timeout` : 'within the statement timeout';
    const noIndex = await oneStatement(doomed, true);
    const withIndex = await oneStatement(doomed, false);
    const emptyNoIndex = await oneStatement(empty, true);
    const emptyWithIndex = await oneStatement(empty, false);

    const started = performance.now();
    const res = await fetch(`${api.baseUrl}/resources/${doomed}`, { method: 'DELETE', headers: { authorization: account } });
    const apiMs = performance.now() - started;
    const left = Number((await db.query('SELECT count(*) AS n FROM access_requests WHERE resource_id = $1', [doomed])).rows[0].n);

    console.log(`\ndeleting a resource with ${REQUESTS} access requests (the table holds ${2 * REQUESTS}):`);
    console.log(`  one cascading statement, no index on resource_id (before):  ${seconds(noIndex)}  ${verdict(noIndex)}`);
    console.log(`  one cascading statement, with access_requests_resource:     ${seconds(withIndex)}  ${verdict(withIndex)}`);
    console.log(`  a resource with no history, no index (before):              ${seconds(emptyNoIndex)}  ${verdict(emptyNoIndex)}`);
    console.log(`  a resource with no history, with the index:                 ${seconds(emptyWithIndex)}`);
    console.log(
      `  DELETE /resources/{id} (batches of 5 000, timeout ${STATEMENT_TIMEOUT_MS} ms):  HTTP ${res.status} in ${seconds(apiMs)}, ${left} requests left`,
    );
    return res.status === 200 && left === 0 ? 0 : 1;
  } finally {
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
