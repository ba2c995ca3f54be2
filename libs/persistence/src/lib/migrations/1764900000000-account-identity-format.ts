import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How the account writes its users' identities: `AsIs` (what clients send, the behaviour
 * before this column) or `Login` (`CORP\jane` and `jane@corp.example` are `jane`). Read with the API
 * credentials (the principal carries it), so the hot paths pay no round trip for it.
 */
export class AccountIdentityFormat1764900000000 implements MigrationInterface {
  name = 'AccountIdentityFormat1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE accounts ADD COLUMN identity_format text NOT NULL DEFAULT 'AsIs' CHECK (identity_format IN ('AsIs', 'Login'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts DROP COLUMN identity_format`);
  }
}
