import { MigrationInterface, QueryRunner } from 'typeorm';

/** A request granted without a code because the user's address is on a Bypass IP list. */
export class AccessRequestBypassed1764800000001 implements MigrationInterface {
  name = 'AccessRequestBypassed1764800000001';

  async up(q: QueryRunner): Promise<void> {
    // a constant default: no rewrite of the table
    await q.query(`ALTER TABLE access_requests ADD COLUMN bypassed boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE access_requests DROP COLUMN bypassed`);
  }
}
