import { MigrationInterface, QueryRunner } from 'typeorm';

/** Foreign keys to users, resources and access requests that had no index led by their column. */
const FOREIGN_KEY_INDEXES: [name: string, table: string, columns: string][] = [
  // the resource's history in id order: ResourcesRepository.delete walks it in batches
  ['access_requests_resource', 'access_requests', 'resource_id, id'],
  ['approvals_resource', 'approvals', 'resource_id'],
  ['refreshed_tokens_resource', 'refreshed_tokens', 'resource_id'],
  ['approvals_user', 'approvals', 'user_id'],
  ['authenticators_user', 'authenticators', 'user_id'],
  ['enrollment_tokens_user_fk', 'enrollment_tokens', 'user_id'],
  ['mobile_app_enrollment_tokens_user_fk', 'mobile_app_enrollment_tokens', 'user_id'],
  ['my_factors_pages_user_fk', 'my_factors_pages', 'user_id'],
  ['phone_codes_user', 'phone_codes', 'user_id'],
  ['standby_codes_user_fk', 'standby_codes', 'user_id'],
  ['telegram_binding_links_user_fk', 'telegram_binding_links', 'user_id'],
  ['wrong_code_streaks_user', 'wrong_code_streaks', 'user_id'],
];

/**
 * An index led by the column of every foreign key to users, resources and access requests. Deleting
 * a row of those makes PostgreSQL look up the rows pointing at it in each referencing table (to
 * cascade or set NULL), one lookup per deleted row, by that column alone: the existing indexes start
 * with `account_id`, so each lookup read the whole table.
 * - A resource with millions of requests: its deletion read every account's requests (a resource with
 *   no history too). With (resource_id, id) the history is also deleted in batches walking the index in
 *   id order (ResourcesRepository.delete), each batch starting after the last id deleted.
 * - The identity-format apply deletes the merged users in one statement: at 55 000 users with an
 *   authenticator each, 5 000 merged users read the authenticators table 5 000 times, past the
 *   statement timeout (bench:identity-format).
 * migrations.spec.ts checks that no such foreign key is left without one.
 *
 * Plain CREATE INDEX, as the other indexes (see 1764950000000-access-requests-user.ts): each holds its
 * table's writes while it builds, about a second per million rows.
 */
export class ForeignKeyIndexes1766200000000 implements MigrationInterface {
  name = 'ForeignKeyIndexes1766200000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [name, table, columns] of FOREIGN_KEY_INDEXES) await q.query(`CREATE INDEX ${name} ON ${table} (${columns})`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of [...FOREIGN_KEY_INDEXES].reverse()) await q.query(`DROP INDEX ${name}`);
  }
}
