import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An index of access requests by resource, then id. Deleting a resource deletes its history (ON DELETE
 * CASCADE, and ResourcesRepository.delete in batches before it), and no index led by `resource_id`:
 * every composite index starts with `account_id` or `user_id`. Without it each of those deletions read
 * the whole table, every account's requests, even for a resource with no history at all. The id after
 * the resource lets the batches walk the history in id order: each starts after the last id deleted,
 * instead of stepping again over the index entries of the rows the same transaction already deleted
 * (a batch at 500 000 rows deleted would pass the statement timeout on them alone).
 *
 * A plain CREATE INDEX, as the other indexes of this table (see 1764950000000-access-requests-user.ts):
 * it holds the table's writes while it builds, about a second per million requests.
 */
export class AccessRequestsResource1766200000000 implements MigrationInterface {
  name = 'AccessRequestsResource1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX access_requests_resource ON access_requests (resource_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX access_requests_resource`);
  }
}
