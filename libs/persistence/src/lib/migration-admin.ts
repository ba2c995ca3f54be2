import { ValidationFailed } from '@twofold/domain';
import { DataSource } from 'typeorm';
import { withMigrationLock } from './data-source';

export interface MigrationStatus {
  /** applied migrations, oldest first */
  applied: string[];
  /** migrations this build knows and the database has not applied, in the order they would run */
  pending: string[];
}

/** What the database has applied (its `schema_migrations` table, absent before the first run) against what this build carries. */
export async function migrationStatus(dataSource: DataSource): Promise<MigrationStatus> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ exists }] = (await dataSource.query('SELECT to_regclass($1) IS NOT NULL AS exists', [table])) as { exists: boolean }[];
  // a read must not create the table, so TypeORM's MigrationExecutor (which does) is not used here
  const rows: { name: string }[] = exists ? await dataSource.query(`SELECT name FROM "${table}" ORDER BY timestamp, id`) : [];
  const applied = rows.map((r) => r.name);
  const known = dataSource.migrations.map((m) => m.name ?? m.constructor.name);
  return { applied, pending: known.filter((name) => !applied.includes(name)) };
}

/** Applies the pending migrations under the migration lock, each in its own transaction (as the API does at start). */
export async function runPendingMigrations(dataSource: DataSource): Promise<string[]> {
  const ran = await withMigrationLock(dataSource, () => dataSource.runMigrations({ transaction: 'each' }));
  return ran.map((m) => m.name);
}

/**
 * Undoes the last applied migration under the migration lock; null when none is applied. A migration
 * this build does not know (applied by a newer version) has no `down` here: refused in plain words.
 */
export async function revertLastMigration(dataSource: DataSource): Promise<string | null> {
  return withMigrationLock(dataSource, async () => {
    const { applied } = await migrationStatus(dataSource);
    const last = applied.at(-1);
    if (last === undefined) return null;
    if (!dataSource.migrations.some((m) => (m.name ?? m.constructor.name) === last)) {
      throw new ValidationFailed(
        `The last applied migration ${last} is not part of this version: revert it with the version that applied it.`,
      );
    }
    await dataSource.undoLastMigration({ transaction: 'each' });
    return last;
  });
}
