import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An index of access requests by user. Deleting a user sets `user_id` NULL on its history (ON DELETE
 * SET NULL), and without an index PostgreSQL found those rows by reading the whole table: one user's
 * deletion read every request ever made (about a second per million rows, against the API's 1.5 s
 * statement timeout), and the identity-format apply, which deletes the merged users, read it once per
 * merged user (30 000 users over 200 000 requests: 270 s). The apply's move of the history to the
 * surviving users finds them by it too.
 *
 * A plain CREATE INDEX, as the other indexes of this table: it holds the table's writes while it
 * builds (about a second per million requests, measured by the bench's seeding). CONCURRENTLY was
 * tried and waits forever for the open transaction that holds the migration lock (withMigrationLock).
 */
export class AccessRequestsUser1764950000000 implements MigrationInterface {
  name = 'AccessRequestsUser1764950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX access_requests_user ON access_requests (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX access_requests_user`);
  }
}
