import { DataSource } from 'typeorm';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';

export interface DataSourceOptions {
  url: string;
  /** connections in the pool */
  poolSize?: number;
  applicationName?: string;
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
    extra: { max: options.poolSize ?? 10, application_name: options.applicationName ?? 'twofold' },
  });
}

/** any constant shared by every Twofold process: serialises migrations between processes */
const MIGRATION_LOCK_ID = 7_276_365_000;

/** Connects and applies pending migrations, one process at a time (the API and the CLI may start together). */
export async function openDatabase(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = createDataSource(options);
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await dataSource.runMigrations({ transaction: 'each' });
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  } finally {
    if (!lock.isReleased) await lock.release();
  }
  return dataSource;
}
