import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Codes sent to users' phones by SMS or a call, and the gateways that send them.
 *
 * - `phone_codes`: one row per code sent, bound to its access request (a new code on the same request
 *   replaces the open one), stored as a SHA-256 hash of the request id and the code, single use
 *   (`used_at`), open until `expires_at`. The rows are also the abuse limits' count: the codes sent
 *   to one user in the last hour (index on user and time) and by the account in the last day (index
 *   on account and time). A send the gateway refused leaves no row: it cost nothing and opened nothing.
 * - `phone_gateways`: an account's own gateway per method (`sms`, `call`), its HTTP template
 *   encrypted at rest as a whole (it holds passwords and tokens); no row: the service-wide default.
 * - `phone_code_policies`: an account's allow-list of destination prefixes (E.164); no row or an
 *   empty list: any destination.
 */
export class PhoneCodes1765700000000 implements MigrationInterface {
  name = 'PhoneCodes1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE phone_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        access_request_id uuid NOT NULL REFERENCES access_requests(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        method text NOT NULL CHECK (method IN ('sms', 'call')),
        phone text NOT NULL,
        code_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        voided boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX phone_codes_request ON phone_codes (access_request_id)`);
    await q.query(`CREATE INDEX phone_codes_user_time ON phone_codes (account_id, user_id, created_at)`);
    await q.query(`CREATE INDEX phone_codes_account_time ON phone_codes (account_id, created_at)`);
    await q.query(`
      CREATE TABLE phone_gateways (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        method text NOT NULL CHECK (method IN ('sms', 'call')),
        settings_enc bytea NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (account_id, method)
      )`);
    await q.query(`
      CREATE TABLE phone_code_policies (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        allowed_prefixes text[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE phone_code_policies`);
    await q.query(`DROP TABLE phone_gateways`);
    await q.query(`DROP TABLE phone_codes`);
  }
}
