import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an administrator first became Active. Unlock returns an administrator to Active, or to Pending
 * when they never were; the status alone cannot tell once it is Locked.
 */
export class AdministratorActivation1763900000000 implements MigrationInterface {
  name = 'AdministratorActivation1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE administrators ADD COLUMN activated_at timestamptz`);
    // whoever is past Pending today got there by activation (the operator CLI vouches for the owner)
    await q.query(`UPDATE administrators SET activated_at = registration_date WHERE status <> 'Pending'`);
    await q.query(
      `ALTER TABLE administrators ADD CONSTRAINT administrators_active_activated CHECK (status <> 'Active' OR activated_at IS NOT NULL)`,
    );
    await q.query(
      `CREATE INDEX administrators_account_scope ON administrators (account_id, id) WHERE status = 'Active' AND role = 'Admin'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX administrators_account_scope`);
    await q.query(`ALTER TABLE administrators DROP CONSTRAINT administrators_active_activated`);
    await q.query(`ALTER TABLE administrators DROP COLUMN activated_at`);
  }
}
