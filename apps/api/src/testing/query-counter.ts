import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';

/**
 * Counts the SQL statements the application sends while `work` runs (every TypeORM query of every
 * connection of this process passes PostgresQueryRunner.query). Tests prove a bound on the work of a
 * call by this count, never by the clock.
 */
export async function countQueries(work: () => PromiseLike<unknown>): Promise<number> {
  const original = PostgresQueryRunner.prototype.query;
  let count = 0;
  PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: Parameters<typeof original>) {
    count += 1;
    return original.apply(this, args);
  } as typeof original;
  try {
    await work();
    return count;
  } finally {
    PostgresQueryRunner.prototype.query = original;
  }
}
