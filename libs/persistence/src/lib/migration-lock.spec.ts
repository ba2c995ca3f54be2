import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createEmptyDatabase } from '../testing';
import { createDataSource, MIGRATION_LOCK_ID, withMigrationLock } from './data-source';

/**
 * The migration lock must work through a transaction pooler (PgBouncer in transaction mode,
 * docs/operations/scaling.md): there a session-level advisory lock stays on whichever server
 * connection ran `pg_advisory_lock`, the unlock may run on another one, and the lock is never
 * released. A lock taken in an open transaction keeps its server connection until it ends, and ends with it.
 */
describe('the migration lock', () => {
  let empty: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let observer: Client;

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    dataSource = createDataSource({ url: empty.url, poolSize: 2 });
    await dataSource.initialize();
    observer = new Client({ connectionString: empty.url });
    await observer.connect();
  });
  afterAll(async () => {
    await observer.end();
    await dataSource.destroy();
    await empty.drop();
  });

  /** The sessions holding the migration lock now, with their state. */
  async function holders(): Promise<string[]> {
    const { rows } = await observer.query(
      `SELECT a.state FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND (l.classid::bigint << 32) + l.objid::bigint = $1`,
      [MIGRATION_LOCK_ID],
    );
    return rows.map((row) => row.state as string);
  }

  it('is held by an open transaction on a connection of its own while the work runs, and released after it', async () => {
    const seen = await withMigrationLock(dataSource, () => holders());
    expect(seen).toEqual(['idle in transaction']);
    expect(await holders()).toEqual([]);
  });

  it('is released when the work fails, and the error goes on', async () => {
    await expect(
      withMigrationLock(dataSource, async () => {
        throw new Error('migration failed');
      }),
    ).rejects.toThrow('migration failed');
    expect(await holders()).toEqual([]);
  });

  it('makes a second holder (another process: a pool of its own) wait until the first is done', async () => {
    const otherProcess = createDataSource({ url: empty.url, poolSize: 1 });
    await otherProcess.initialize();
    try {
      const order: string[] = [];
      let releaseFirst: () => void = () => undefined;
      const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
      const first = withMigrationLock(dataSource, async () => {
        order.push('first');
        await firstHolds;
        order.push('first done');
      });
      // the first holds the lock once the observer sees it held
      while ((await holders()).length === 0);
      const second = withMigrationLock(otherProcess, async () => void order.push('second'));
      // the second is queued behind the lock: a lock request not granted
      for (;;) {
        const { rows } = await observer.query(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`);
        if (rows[0].n > 0) break;
      }
      expect(order).toEqual(['first']);
      releaseFirst();
      await Promise.all([first, second]);
      expect(order).toEqual(['first', 'first done', 'second']);
    } finally {
      await otherProcess.destroy();
    }
  });
});
