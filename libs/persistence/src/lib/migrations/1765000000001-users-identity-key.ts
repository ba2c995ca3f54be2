import { identityKey } from '@twofold/domain';
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Users keyed per statement while the keys are computed: the statements stay short on large accounts. */
const BATCH = 5_000;

/**
 * Identities compared by their key (libs/domain identity-key.ts: NFKC, every case folded, trailing
 * dots dropped) instead of PostgreSQL's `lower()`, which folds only ASCII under the C locale: `Élan`
 * and `élan`, `ｊａｎｅ` and `jane`, `jane.` and `jane` were distinct users.
 *
 * Existing users whose identities now share a key are not merged: that would hand one person's
 * factors and history to another. The oldest of each such group keeps the plain key; every younger
 * one gets its own id as `collision_tag`, which keeps them apart in the unique index. A lookup finds a
 * user of such a group only by its exact identity (users.repository.ts), and `account show` lists the
 * groups for an administrator to rename or delete. New users and renames always get an empty tag, so
 * no new look-alike can be made.
 */
export class UsersIdentityKey1765000000001 implements MigrationInterface {
  name = 'UsersIdentityKey1765000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN identity_key text, ADD COLUMN collision_tag text NOT NULL DEFAULT ''`);
    let after: { accountId: string; createdAt: Date; id: string } | null = null;
    const seen = new Set<string>();
    let account: string | null = null;
    for (;;) {
      const rows: { id: string; account_id: string; identity: string; created_at: Date }[] = after
        ? await q.query(
            `SELECT id, account_id, identity, created_at FROM users
              WHERE (account_id, created_at, id) > ($1, $2, $3) ORDER BY account_id, created_at, id LIMIT ${BATCH}`,
            [after.accountId, after.createdAt, after.id],
          )
        : await q.query(`SELECT id, account_id, identity, created_at FROM users ORDER BY account_id, created_at, id LIMIT ${BATCH}`);
      if (rows.length === 0) break;
      const ids: string[] = [];
      const keys: string[] = [];
      const tags: string[] = [];
      for (const row of rows) {
        if (row.account_id !== account) {
          account = row.account_id;
          seen.clear();
        }
        const key = identityKey(row.identity);
        ids.push(row.id);
        keys.push(key);
        // the oldest of the account's users with this key keeps it plain
        tags.push(seen.has(key) ? row.id : '');
        seen.add(key);
      }
      await q.query(
        `UPDATE users u SET identity_key = v.key, collision_tag = v.tag
           FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, key, tag) WHERE u.id = v.id`,
        [ids, keys, tags],
      );
      const last = rows[rows.length - 1];
      after = { accountId: last.account_id, createdAt: last.created_at, id: last.id };
    }
    await q.query(`ALTER TABLE users ALTER COLUMN identity_key SET NOT NULL`);
    await q.query(`DROP INDEX users_account_identity`);
    await q.query(`CREATE UNIQUE INDEX users_account_identity ON users (account_id, identity_key, collision_tag)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_account_identity`);
    await q.query(`ALTER TABLE users DROP COLUMN identity_key, DROP COLUMN collision_tag`);
    // fails, as it should, where two users differ only in case: the old index cannot hold them
    await q.query(`CREATE UNIQUE INDEX users_account_identity ON users (account_id, lower(identity))`);
  }
}
