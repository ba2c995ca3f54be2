import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';

/**
 * The SQL statements the application sends while `work` runs (every TypeORM query of every connection
 * of this process passes PostgresQueryRunner.query). Tests prove a bound on the work of a call by
 * these statements, never by the clock.
 */
export async function recordQueries(work: () => PromiseLike<unknown>): Promise<string[]> {
  const original = PostgresQueryRunner.prototype.query;
  const statements: string[] = [];
  PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: Parameters<typeof original>) {
    statements.push(args[0]);
    return original.apply(this, args);
  } as typeof original;
  try {
    await work();
    return statements;
  } finally {
    PostgresQueryRunner.prototype.query = original;
  }
}

/** How many statements `work` sends (see recordQueries). */
export async function countQueries(work: () => PromiseLike<unknown>): Promise<number> {
  return (await recordQueries(work)).length;
}
