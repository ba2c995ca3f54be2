import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The administrators' console.
 *
 * `console_sign_ins`: a sign-in started with an administrator's e-mail; the code mailed to it is kept
 * as a salted SHA-256 only (8 random digits, 10 minutes, 5 tries, one use).
 *
 * `console_sessions`: a signed-in administrator. The browser holds a random 32-byte session id; the
 * table holds only its SHA-256, so a copy of it opens no session (the CSRF token is an HMAC of the id). Idle and absolute
 * expiry are checked against `last_seen_at` and `created_at`; a session ends with its administrator
 * (ON DELETE CASCADE), and a lock ends it because every request reads the administrator's status.
 *
 * `administrators.second_factor_failures` / `temporary_locked_until`: wrong second factors in a row,
 * and until when the fifth made the administrator TemporaryLocked. `second_factor_last_step`: the
 * TOTP time step last used to sign in, so a code seen over a shoulder cannot be replayed.
 * `self_locked`: the administrator locked themselves out (Employee SelfLock); their unlock is then
 * journaled SelfUnlock as well.
 */
export class Console1766300000000 implements MigrationInterface {
  name = 'Console1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE console_sign_ins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        administrator_id uuid NOT NULL REFERENCES administrators(id) ON DELETE CASCADE,
        salt bytea NOT NULL,
        code_hash bytea NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX console_sign_ins_administrator ON console_sign_ins (administrator_id)`);
    await q.query(`
      CREATE TABLE console_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash bytea NOT NULL UNIQUE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        administrator_id uuid NOT NULL REFERENCES administrators(id) ON DELETE CASCADE,
        second_factor text NOT NULL,
        address text,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX console_sessions_administrator ON console_sessions (administrator_id)`);
    await q.query(`ALTER TABLE administrators ADD COLUMN second_factor_failures int NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE administrators ADD COLUMN temporary_locked_until timestamptz`);
    await q.query(`ALTER TABLE administrators ADD COLUMN second_factor_last_step bigint`);
    await q.query(`ALTER TABLE administrators ADD COLUMN self_locked boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE administrators DROP COLUMN self_locked`);
    await q.query(`ALTER TABLE administrators DROP COLUMN second_factor_last_step`);
    await q.query(`ALTER TABLE administrators DROP COLUMN temporary_locked_until`);
    await q.query(`ALTER TABLE administrators DROP COLUMN second_factor_failures`);
    await q.query(`DROP TABLE console_sessions`);
    await q.query(`DROP TABLE console_sign_ins`);
  }
}
