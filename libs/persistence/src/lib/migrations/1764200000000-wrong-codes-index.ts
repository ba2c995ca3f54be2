import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every code check sums the user's wrong codes of the last 15 minutes (the per-user cap). Through
 * (account_id, created_at) that read every request of the account in the window — all of a login
 * storm's. Only requests with a wrong code matter, so the index holds just those.
 */
export class WrongCodesIndex1764200000000 implements MigrationInterface {
  name = 'WrongCodesIndex1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX access_requests_user_wrong_codes ON access_requests (user_id, created_at) WHERE failed_attempts > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX access_requests_user_wrong_codes`);
  }
}
