import { DataSource } from 'typeorm';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';

/**
 * How long a statement may take before the client gives up on a server that cannot even cancel it
 * (a frozen server answers nothing, not even the cancellation that `statement_timeout` sends).
 */
export const QUERY_TIMEOUT_MARGIN_MS = 250;

/** Bounded waits of a pool; absent, a wait is unbounded (the CLI's long batches, migrations). */
export interface DatabaseTimeouts {
  /** opening a connection, and waiting for a free one of the pool (pg `connectionTimeoutMillis`) */
  connectTimeoutMs: number;
  /** one statement on the server (`statement_timeout`); the client waits QUERY_TIMEOUT_MARGIN_MS more */
  statementTimeoutMs: number;
}

export interface DataSourceOptions {
  url: string;
  /** connections in the pool */
  poolSize?: number;
  applicationName?: string;
  timeouts?: DatabaseTimeouts;
}

function timeoutOptions(timeouts: DatabaseTimeouts | undefined): Record<string, number> {
  if (!timeouts) return {};
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
    query_timeout: timeouts.statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
  };
}

/** Migrations are applied explicitly at start (runMigrations), never `synchronize`. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: ALL_ENTITIES,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: options.poolSize ?? 10, application_name: options.applicationName ?? 'twofold', ...timeoutOptions(options.timeouts) },
  });
}

/** any constant shared by every Twofold process: serialises migrations between processes */
export const MIGRATION_LOCK_ID = 7_276_365_000;

/**
 * Runs `fn` holding the migration lock, so the API starting and the operator's `migrate` commands
 * never change the schema at once; waits for a holder to finish. The lock belongs to an open
 * transaction on a connection of its own (`pg_advisory_xact_lock`), not to the session: through a
 * transaction pooler (PgBouncer in transaction mode, docs/operations/scaling.md) a transaction keeps
 * its server connection to its end, while a session lock would stay on whichever server connection
 * took it and never be released. The transaction ends after `fn`, or with the connection, whatever happens.
 */
export async function withMigrationLock<T>(dataSource: DataSource, fn: () => Promise<T>): Promise<T> {
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.startTransaction();
    let result: T;
    try {
      await lock.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
      result = await fn();
    } catch (error) {
      await lock.rollbackTransaction().catch(() => undefined);
      throw error;
    }
    await lock.commitTransaction();
    return result;
  } finally {
    if (!lock.isReleased) await lock.release();
  }
}

/**
 * Applies pending migrations, one process at a time (the API and the CLI may start together), on a
 * pool of its own without the timeouts: building an index on a large table may take minutes.
 */
export async function migrateDatabase(options: Pick<DataSourceOptions, 'url' | 'applicationName'>): Promise<void> {
  const dataSource = createDataSource({ url: options.url, poolSize: 2, applicationName: options.applicationName });
  await dataSource.initialize();
  try {
    await withMigrationLock(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Migrates (unless `migrate` is false: the operator's `migrate` commands look before they change),
 * then connects the pool the caller keeps (with its timeouts, if any).
 */
export async function openDatabase(options: DataSourceOptions & { migrate?: boolean }): Promise<DataSource> {
  if (options.migrate !== false) await migrateDatabase(options);
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  return dataSource;
}
