import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approvals asked by the LDAP adapter (`POST /access/requests/la`): its access requests are recorded
 * with their own channel, `la`, beside the page's and the `ra` family's, so the history and the
 * metrics tell an LDAP bind from a VPN sign-in.
 */
export class ApprovalsLdapChannel1765300000000 implements MigrationInterface {
  name = 'ApprovalsLdapChannel1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE access_requests DROP CONSTRAINT access_requests_channel`);
    await q.query(`ALTER TABLE access_requests ADD CONSTRAINT access_requests_channel CHECK (channel IN ('page', 'ra', 'md', 'la'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE access_requests SET channel = 'ra' WHERE channel = 'la'`);
    await q.query(`ALTER TABLE access_requests DROP CONSTRAINT access_requests_channel`);
    await q.query(`ALTER TABLE access_requests ADD CONSTRAINT access_requests_channel CHECK (channel IN ('page', 'ra', 'md'))`);
  }
}
