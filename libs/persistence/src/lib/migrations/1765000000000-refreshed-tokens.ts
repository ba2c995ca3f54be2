import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tokens `POST /token/refresh` issued, by their `jti`. A token is refreshed only when its `jti`
 * names a grant of this service: a Granted access request of the calling resource, or a token this
 * service refreshed before (this table, which leads back to that request). A token its holder signed
 * itself (an HS256 token keyed by the resource's own secret) names neither, so refresh cannot turn
 * it into one the service signed.
 */
export class RefreshedTokens1765000000000 implements MigrationInterface {
  name = 'RefreshedTokens1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refreshed_tokens (
        jti uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        resource_id uuid NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
        request_id uuid NOT NULL REFERENCES access_requests(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL
      )`);
    // the expired tokens of an account are removed a few at a time by the refreshes themselves
    await q.query(`CREATE INDEX refreshed_tokens_expiry ON refreshed_tokens (account_id, expires_at)`);
    await q.query(`CREATE INDEX refreshed_tokens_request ON refreshed_tokens (request_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refreshed_tokens`);
  }
}
