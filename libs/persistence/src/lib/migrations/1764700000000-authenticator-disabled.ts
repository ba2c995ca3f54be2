import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An administrator can disable an authenticator without deleting it: it stays listed and
 * keeps its secret and replay state, but no code of it is accepted until it is enabled again.
 */
export class AuthenticatorDisabled1764700000000 implements MigrationInterface {
  name = 'AuthenticatorDisabled1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE authenticators ADD COLUMN disabled boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE authenticators DROP COLUMN disabled`);
  }
}
