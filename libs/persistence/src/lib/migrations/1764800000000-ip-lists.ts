import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * IP lists: an account's named networks whose access requests are let in without a code
 * (`Bypass`) or refused (`Deny`), for every resource or the ones named in ip_list_resources.
 *
 * `accounts.ip_lists_revision` is how the hot paths learn, in a query they already make, whether an
 * account has lists and whether the compiled copy an API process holds is current: NULL for an account
 * that never had a list (nothing more is read), else a value of the sequence, taken anew by every change
 * in the change's transaction (values never repeat, so an old copy is never taken for a new one).
 *
 * A resource named by a list cannot be deleted (the foreign key, NO ACTION so that deleting the account
 * still cascades to both): a list whose only resources disappeared would otherwise read as a list for
 * every resource (an empty `resources`).
 */
export class IpLists1764800000000 implements MigrationInterface {
  name = 'IpLists1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE ip_lists_revision`);
    await q.query(`ALTER TABLE accounts ADD COLUMN ip_lists_revision bigint NULL`);
    await q.query(`
      CREATE TABLE ip_lists (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name text NOT NULL,
        action text NOT NULL CHECK (action IN ('Bypass', 'Deny')),
        ranges text[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX ip_lists_account_name ON ip_lists (account_id, lower(name))`);
    await q.query(`CREATE INDEX ip_lists_account ON ip_lists (account_id, created_at, id)`);
    await q.query(`
      CREATE TABLE ip_list_resources (
        ip_list_id uuid NOT NULL REFERENCES ip_lists(id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        resource_id uuid NOT NULL REFERENCES resources(id),
        PRIMARY KEY (ip_list_id, resource_id)
      )`);
    // the foreign key's check when a resource is deleted
    await q.query(`CREATE INDEX ip_list_resources_resource ON ip_list_resources (resource_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ip_list_resources`);
    await q.query(`DROP TABLE ip_lists`);
    await q.query(`ALTER TABLE accounts DROP COLUMN ip_lists_revision`);
    await q.query(`DROP SEQUENCE ip_lists_revision`);
  }
}
