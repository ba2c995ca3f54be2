import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The authenticator-app secret shown on the access page to a user without a second factor, bound to
 * the request on the server (AES-256-GCM, purpose authenticator.secret): the first valid code makes it
 * the user's Totp authenticator. The browser never posts a secret back.
 */
export class AccessRequestPendingSecret1764000000000 implements MigrationInterface {
  name = 'AccessRequestPendingSecret1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE access_requests ADD COLUMN pending_secret_enc bytea`);
    // expiry sweeps and polling look for awaiting requests of one account
    await q.query(
      `CREATE INDEX access_requests_account_awaiting ON access_requests (account_id, created_at) WHERE status = 'AwaitingAuthentication'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX access_requests_account_awaiting`);
    await q.query(`ALTER TABLE access_requests DROP COLUMN pending_secret_enc`);
  }
}
