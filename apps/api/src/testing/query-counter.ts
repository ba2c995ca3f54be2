import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';

/**
 * Counts the SQL statements the application sends while `work` runs (every TypeORM query of every
 * connection of this process passes PostgresQueryRunner.query). Tests prove a bound on the work of a
 * call by this count, never by the clock.
 */
export async function countQueries(work: () => PromiseLike<unknown>): Promise<number> {
  const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}
