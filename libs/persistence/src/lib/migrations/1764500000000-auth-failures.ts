import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed Basic-auth attempts per client and per API key, in the window that started with the first
 * failure: in the database, so that every instance of the API counts the same
 * failures. A row is written only by a failed attempt; successful calls never touch the table.
 */
export class AuthFailures1764500000000 implements MigrationInterface {
  name = 'AuthFailures1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_failures (
        client text PRIMARY KEY,
        window_started_at timestamptz NOT NULL,
        failures integer NOT NULL CHECK (failures > 0)
      )`);
    await q.query(`CREATE INDEX auth_failures_window ON auth_failures (window_started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE auth_failures`);
  }
}
