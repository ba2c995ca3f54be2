import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { systemClock } from '@twofold/domain';
import { ALL_MIGRATIONS, createDataSource, Db, MIGRATION_LOCK_ID, SecretCipher } from '@twofold/persistence';
import { createEmptyDatabase } from '@twofold/persistence/testing';
import { Connect, runCli } from './cli';
import { Provisioning } from './provisioning';

const ALL = ALL_MIGRATIONS.map((m) => m.name);

describe('migrate status|run|revert', () => {
  let empty: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  const connected: { migrate: boolean }[] = [];

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    dataSource = createDataSource({ url: empty.url, poolSize: 4 });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await empty.drop();
  });

  const connect: Connect = async (options) => {
    connected.push(options);
    return {
      provisioning: new Provisioning(new Db(dataSource), new SecretCipher(randomBytes(32)), systemClock),
      dataSource,
      close: async () => undefined,
    };
  };

  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, connect);
    return { code, stdout, stderr, json: () => JSON.parse(stdout) };
  }

  it('shows every migration pending on an empty database, without creating anything', async () => {
    const status = await cli('migrate', 'status', '--json');
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.json()).toEqual({ applied: [], pending: ALL });
    // the migrate commands connect without migrating first
    expect(connected.at(-1)).toEqual({ migrate: false });
    const [{ exists }] = await dataSource.query(`SELECT to_regclass('schema_migrations') IS NOT NULL AS exists`);
    expect(exists).toBe(false);
  });

  it('runs the pending ones, then has none; revert undoes the last one only with --yes', async () => {
    const run = await cli('migrate', 'run', '--json');
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ ran: ALL });
    expect((await cli('migrate', 'status', '--json')).json()).toEqual({ applied: ALL, pending: [] });
    expect((await cli('migrate', 'run', '--json')).json()).toEqual({ ran: [] });

    const refused = await cli('migrate', 'revert', '--json');
    expect(refused.code).toBe(2);
    expect((await cli('migrate', 'status', '--json')).json().pending).toEqual([]);

    const reverted = await cli('migrate', 'revert', '--yes', '--json');
    expect(reverted.code).toBe(0);
    expect(reverted.json()).toEqual({ reverted: ALL.at(-1) });
    expect((await cli('migrate', 'status', '--json')).json()).toEqual({ applied: ALL.slice(0, -1), pending: ALL.slice(-1) });
    expect((await cli('migrate', 'run')).stdout).toBe(`ran: ${JSON.stringify(ALL.slice(-1), null, 2)}\n`);
  });

  it('refuses to revert a migration this version does not know', async () => {
    await dataSource.query(`INSERT INTO schema_migrations (timestamp, name) VALUES (9999999999999, 'FromTheFuture9999999999999')`);
    try {
      const refused = await cli('migrate', 'revert', '--yes', '--json');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr).error.message).toContain('FromTheFuture9999999999999 is not part of this version');
      expect((await cli('migrate', 'status', '--json')).json().applied.at(-1)).toBe('FromTheFuture9999999999999');
    } finally {
      await dataSource.query(`DELETE FROM schema_migrations WHERE name = 'FromTheFuture9999999999999'`);
    }
  });

  it('waits for the migration lock that a starting API holds', async () => {
    await cli('migrate', 'revert', '--yes');
    const holder = new Client({ connectionString: empty.url });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      let finished = false;
      const run = cli('migrate', 'run', '--json').finally(() => (finished = true));
      // the run is seen queued behind the lock: a lock request not granted, from another session
      for (;;) {
        const { rows } = await holder.query(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid <> pg_backend_pid()`,
        );
        if (rows[0].n > 0) break;
      }
      expect(finished).toBe(false);
      expect((await cli('migrate', 'status', '--json')).json().pending).toEqual(ALL.slice(-1));
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      expect((await run).json()).toEqual({ ran: ALL.slice(-1) });
    } finally {
      await holder.end();
    }
  });
});
