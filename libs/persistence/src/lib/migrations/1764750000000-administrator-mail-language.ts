import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The language an administrator was invited in: a re-sent invitation
 * (`resend-invitation-email`, which has no body) is written in it. NULL for administrators invited
 * before this column: their re-sent invitation keeps the default language, as before.
 */
export class AdministratorMailLanguage1764750000000 implements MigrationInterface {
  name = 'AdministratorMailLanguage1764750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE administrators ADD COLUMN mail_language text NULL CHECK (mail_language IN ('ru', 'en'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE administrators DROP COLUMN mail_language`);
  }
}
