import { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS_BEFORE = `'Totp', 'TotpToken', 'HotpToken', 'Telegram', 'Sms'`;
const KINDS = `'Totp', 'TotpToken', 'HotpToken', 'Telegram', 'MobileApp', 'Sms'`;

/**
 * Out-of-band approval (libs/domain approvals.ts): the pending approvals of access requests, and the
 * Telegram chats bound to users with the single-use links that bind them.
 *
 * - `authenticators.kind` admits `MobileApp` (the service's authenticator app, a later transport).
 * - `approvals`: one per access request (a request asks once). Decided by a conditional UPDATE on
 *   `status = 'Pending'`, so of parallel answers on any instance exactly one wins. Indexes: the
 *   pending ones of a user (push fatigue counts them under the user's row lock), a user's "it wasn't
 *   me" answers (the cooldown reads the last 75 minutes of them), and the primary key, by which the
 *   waiting instances read the decisions they wait for once a second.
 * - `telegram_bindings`: the chat of a `Telegram` authenticator (deleted with it); no user column, so
 *   the binding follows its authenticator when users are merged.
 * - `telegram_binding_links`: the `/start` payloads, stored as SHA-256 hashes, single use, expiring;
 *   `authenticator_id` is what the link bound, for the page that shows it to notice.
 */
export class Approvals1765200000000 implements MigrationInterface {
  name = 'Approvals1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE authenticators DROP CONSTRAINT authenticators_kind_check`);
    await q.query(`ALTER TABLE authenticators ADD CONSTRAINT authenticators_kind_check CHECK (kind IN (${KINDS}))`);
    await q.query(`
      CREATE TABLE approvals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        access_request_id uuid NOT NULL REFERENCES access_requests(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        resource_id uuid NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        authenticator_id uuid REFERENCES authenticators(id) ON DELETE SET NULL,
        factor text NOT NULL CHECK (factor IN ('MobileApp', 'Telegram')),
        channel text NOT NULL CHECK (channel IN ('page', 'ra', 'md', 'la')),
        address text,
        number smallint CHECK (number BETWEEN 10 AND 99),
        choices smallint[],
        status text NOT NULL DEFAULT 'Pending'
          CHECK (status IN ('Pending', 'Approved', 'Rejected', 'Expired', 'Cancelled', 'Undeliverable')),
        reject_reason text CHECK (reject_reason IN ('notMe', 'wrongNumber')),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        decided_at timestamptz,
        decided_by text,
        decided_from_address text,
        delivery_ref jsonb,
        CHECK ((number IS NULL) = (choices IS NULL)),
        CHECK ((status = 'Rejected') = (reject_reason IS NOT NULL)),
        CHECK ((status = 'Pending') = (decided_at IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX approvals_access_request ON approvals (access_request_id)`);
    await q.query(`CREATE INDEX approvals_user_pending ON approvals (account_id, user_id, expires_at) WHERE status = 'Pending'`);
    await q.query(`CREATE INDEX approvals_user_not_me ON approvals (account_id, user_id, decided_at) WHERE reject_reason = 'notMe'`);
    await q.query(`
      CREATE TABLE telegram_bindings (
        authenticator_id uuid PRIMARY KEY REFERENCES authenticators(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        chat_id bigint NOT NULL,
        language_code text,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX telegram_bindings_account_chat ON telegram_bindings (account_id, chat_id)`);
    await q.query(`
      CREATE TABLE telegram_binding_links (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        payload_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        authenticator_id uuid REFERENCES authenticators(id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX telegram_binding_links_user ON telegram_binding_links (account_id, user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE telegram_binding_links`);
    await q.query(`DROP TABLE telegram_bindings`);
    await q.query(`DROP TABLE approvals`);
    await q.query(`DELETE FROM authenticators WHERE kind = 'MobileApp'`);
    await q.query(`ALTER TABLE authenticators DROP CONSTRAINT authenticators_kind_check`);
    await q.query(`ALTER TABLE authenticators ADD CONSTRAINT authenticators_kind_check CHECK (kind IN (${KINDS_BEFORE}))`);
  }
}
