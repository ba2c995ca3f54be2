import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `standby_codes`: a user's recovery codes and helpdesk bypass codes, what they sign in with when the
 * phone is gone. Each is stored as the SHA-256 of a random per-row salt and the code (never the code
 * itself): the codes carry 60 random bits, so a slow password hash buys nothing, and the salt keeps a
 * stolen table from being attacked for all its rows at once. `uses_left` is spent by a conditional
 * UPDATE, so one code is taken at most that many times by any number of parallel attempts;
 * `expires_at` is null for recovery codes, which last until they are used or regenerated.
 *
 * `authenticators.totp_drift_steps`: a TOTP token's clock drift in 30-second steps, found by a
 * resync from two consecutive codes; its codes are looked for around now plus the drift from then on.
 */
export class StandbyCodes1765800000000 implements MigrationInterface {
  name = 'StandbyCodes1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE standby_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('BypassCode', 'RecoveryCode')),
        salt bytea NOT NULL,
        code_hash bytea NOT NULL,
        uses_left int NOT NULL CHECK (uses_left >= 0),
        expires_at timestamptz,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX standby_codes_user ON standby_codes (account_id, user_id)`);
    await q.query(
      `ALTER TABLE authenticators ADD COLUMN totp_drift_steps int NOT NULL DEFAULT 0 CHECK (totp_drift_steps BETWEEN -20 AND 20)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE authenticators DROP COLUMN totp_drift_steps`);
    await q.query(`DROP TABLE standby_codes`);
  }
}
