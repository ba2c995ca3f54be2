import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The service's own authenticator app (`MobileApp` authenticators):
 * - `mobile_app_devices`: the device of a `MobileApp` authenticator (deleted with it): its P-256 public
 *   key (SPKI DER; the private key never leaves the device), the last signature counter it used (every
 *   signed request must carry a greater one, so none can be replayed), and its Web Push subscription
 *   (null once the push service refused it). One key belongs to one device.
 * - `mobile_app_enrollment_tokens`: single-use, expiring tokens a page gives a user's phone to
 *   register itself, stored as SHA-256 hashes; `authenticator_id` is what the token made.
 * - `web_push_vapid_keys`: the service's VAPID key pair (one row), generated at first start, the
 *   private key encrypted like every other secret.
 */
export class MobileAppDevices1765600000000 implements MigrationInterface {
  name = 'MobileAppDevices1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mobile_app_devices (
        authenticator_id uuid PRIMARY KEY REFERENCES authenticators(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        public_key bytea NOT NULL UNIQUE,
        last_counter bigint NOT NULL CHECK (last_counter >= 0),
        push_endpoint text,
        push_p256dh text,
        push_auth text,
        created_at timestamptz NOT NULL,
        CHECK ((push_endpoint IS NULL) = (push_p256dh IS NULL) AND (push_endpoint IS NULL) = (push_auth IS NULL))
      )`);
    await q.query(`
      CREATE TABLE mobile_app_enrollment_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        authenticator_id uuid REFERENCES authenticators(id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX mobile_app_enrollment_tokens_user ON mobile_app_enrollment_tokens (account_id, user_id)`);
    await q.query(`
      CREATE TABLE web_push_vapid_keys (
        id smallint PRIMARY KEY CHECK (id = 1),
        public_key text NOT NULL,
        private_key_enc bytea NOT NULL,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE web_push_vapid_keys`);
    await q.query(`DROP TABLE mobile_app_enrollment_tokens`);
    await q.query(`DROP TABLE mobile_app_devices`);
  }
}
