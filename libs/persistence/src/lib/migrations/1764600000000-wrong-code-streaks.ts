import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Wrong codes per user in two scopes: one row per (user, address network) and
 * per (user, resource) that saw a wrong code, with the lockout it is in. Written only by wrong codes
 * and cleared by a granted code or an unlock: a user who types right codes never has a row. The
 * user's rows go with the user (a resource's `scope_key` is its id, without a reference: a lockout
 * outlives nothing it would matter to).
 */
export class WrongCodeStreaks1764600000000 implements MigrationInterface {
  name = 'WrongCodeStreaks1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wrong_code_streaks (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        scope text NOT NULL CHECK (scope IN ('address', 'resource')),
        scope_key text NOT NULL,
        failures integer NOT NULL CHECK (failures > 0),
        last_failure_at timestamptz NOT NULL,
        locked_until timestamptz,
        PRIMARY KEY (account_id, user_id, scope, scope_key)
      )`);
    // the users list shows lockouts in force: found by user, among the few rows that have one
    await q.query(`CREATE INDEX wrong_code_streaks_locked ON wrong_code_streaks (account_id, user_id) WHERE locked_until IS NOT NULL`);
    // the per-user sum of recent wrong codes it served is gone with this table
    await q.query(`DROP INDEX access_requests_user_wrong_codes`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX access_requests_user_wrong_codes ON access_requests (user_id, created_at) WHERE failed_attempts > 0`);
    await q.query(`DROP TABLE wrong_code_streaks`);
  }
}
