import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Enrollment links of users and invitations of administrators. Only a SHA-256 of the token is
 * stored: the token itself is a credential that lives in the link alone.
 */
export class EnrollmentTokens1763800000000 implements MigrationInterface {
  name = 'EnrollmentTokens1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE enrollment_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        user_id uuid REFERENCES users(id) ON DELETE CASCADE,
        administrator_id uuid REFERENCES administrators(id) ON DELETE CASCADE,
        email text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        -- the authenticator-app secret shown on the page, kept until a first valid code confirms it
        pending_secret_enc bytea,
        failed_attempts integer NOT NULL DEFAULT 0,
        CHECK ((user_id IS NULL) <> (administrator_id IS NULL))
      )`);
    await q.query(`CREATE INDEX enrollment_tokens_user ON enrollment_tokens (account_id, user_id) WHERE user_id IS NOT NULL`);
    await q.query(
      `CREATE INDEX enrollment_tokens_administrator ON enrollment_tokens (account_id, administrator_id) WHERE administrator_id IS NOT NULL`,
    );
    // an administrator's own second factor, set up through the invitation link
    await q.query(`ALTER TABLE administrators ADD COLUMN second_factor_secret_enc bytea`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE administrators DROP COLUMN second_factor_secret_enc`);
    await q.query(`DROP TABLE enrollment_tokens`);
  }
}
