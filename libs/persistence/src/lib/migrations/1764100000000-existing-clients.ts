import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the existing clients (RADIUS adapters, directory servers, AD FS and Keycloak) need:
 * - resources choose their token format and the origins allowed to frame their pages and
 *   receive a postMessage token;
 * - an access request remembers the channel it came through (the access page, or the `ra` family
 *   of a RADIUS adapter or directory server), so a `ra/challenge` never continues a page's request
 *   and a page never shows an `ra` request;
 * - `groupPolicyPreset.signUpGroups` of a request: the groups a user registered by it joins.
 */
export class ExistingClients1764100000000 implements MigrationInterface {
  name = 'ExistingClients1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE resources ADD COLUMN token_format text NOT NULL DEFAULT 'JwtHS256'`);
    await q.query(`ALTER TABLE resources ADD CONSTRAINT resources_token_format CHECK (token_format IN ('JwtHS256', 'JwtRS256'))`);
    await q.query(`ALTER TABLE resources ADD COLUMN frame_origins text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE access_requests ADD COLUMN channel text NOT NULL DEFAULT 'page'`);
    await q.query(`ALTER TABLE access_requests ADD CONSTRAINT access_requests_channel CHECK (channel IN ('page', 'ra', 'md'))`);
    await q.query(`ALTER TABLE access_requests ADD COLUMN sign_up_groups text[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE access_requests DROP COLUMN sign_up_groups`);
    await q.query(`ALTER TABLE access_requests DROP CONSTRAINT access_requests_channel`);
    await q.query(`ALTER TABLE access_requests DROP COLUMN channel`);
    await q.query(`ALTER TABLE resources DROP COLUMN frame_origins`);
    await q.query(`ALTER TABLE resources DROP CONSTRAINT resources_token_format`);
    await q.query(`ALTER TABLE resources DROP COLUMN token_format`);
  }
}
