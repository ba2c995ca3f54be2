import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer's own name on its pages, mails and authenticator-app entries. NULL means the
 * account's name: an account created before this column, or one whose display name was reset, follows
 * a later rename of the account instead of keeping a copy of the old name.
 */
export class AccountDisplayName1764700000001 implements MigrationInterface {
  name = 'AccountDisplayName1764700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN display_name text NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts DROP COLUMN display_name`);
  }
}
