import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The self-service portals' family.
 *
 * - `access_requests.purpose`: what a request's token will be used for. `signIn` for every request
 *   made so far; `resetPassword` and `unlockUser` for the portals' recovery requests, whose token
 *   alone lets the portal change a directory password or unlock an account: their page never enrolls
 *   a factor and an IP list never bypasses it.
 * - `self_service_settings`: one row per account that set any of it: the support contact shown on
 *   the portal's pages, and the showcase tiles (`showcase_links` as the portal reads them).
 * - `showcase_logos`: the tiles' images, PNG, JPEG or WebP as their bytes say, at most 256 KiB each.
 * - `my_factors_pages`: the single-use, short-lived page where a user manages their own factors,
 *   opened from the portal; stored as the SHA-256 of the token in its link, bound to the user and,
 *   from its first visit on, to that browser's cookie (`browser_nonce_hash`); `checked_until` is the
 *   end of the fresh check of an existing factor that a change on the page needs.
 */
export class SelfService1765500000000 implements MigrationInterface {
  name = 'SelfService1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE access_requests ADD COLUMN purpose text NOT NULL DEFAULT 'signIn'
        CHECK (purpose IN ('signIn', 'resetPassword', 'unlockUser'))`);
    await q.query(`
      CREATE TABLE self_service_settings (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        support_admin_name text,
        support_admin_email text,
        support_admin_phone text,
        showcase_enabled boolean NOT NULL DEFAULT false,
        showcase_links jsonb NOT NULL DEFAULT '[]'::jsonb
      )`);
    await q.query(`
      CREATE TABLE showcase_logos (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
        bytes bytea NOT NULL CHECK (octet_length(bytes) <= 262144),
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, name)
      )`);
    await q.query(`
      CREATE TABLE my_factors_pages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        browser_nonce_hash bytea,
        pending_secret_enc bytea,
        checked_until timestamptz,
        failed_attempts int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX my_factors_pages_user ON my_factors_pages (account_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE my_factors_pages`);
    await q.query(`DROP TABLE showcase_logos`);
    await q.query(`DROP TABLE self_service_settings`);
    await q.query(`ALTER TABLE access_requests DROP COLUMN purpose`);
  }
}
