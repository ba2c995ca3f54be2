import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number of users of an account, kept on the account row by a trigger on users: the
 * licence check counted every user of the account while holding the account lock (a sequential scan
 * of 100 000 users, ~25 ms, `npm run bench:api`), which serialised POST /users at ~50 users/s and made
 * POST /access/requests for an unknown identity scan the users too. The trigger runs in the inserting
 * or deleting transaction, so the count is exact wherever it is read.
 */
export class AccountUserCount1764300000000 implements MigrationInterface {
  name = 'AccountUserCount1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE accounts ADD COLUMN user_count integer NOT NULL DEFAULT 0 CHECK (user_count >= 0)`);
    // statement-level with transition tables: a statement inserting many users (an import) updates each
    // account row once, not once per user (per row, 100 000 users in one INSERT took minutes)
    await q.query(`
      CREATE FUNCTION accounts_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE accounts a SET user_count = a.user_count + c.n
            FROM (SELECT account_id, count(*)::int AS n FROM changed_users GROUP BY account_id) c WHERE a.id = c.account_id;
        ELSE
          UPDATE accounts a SET user_count = a.user_count - c.n
            FROM (SELECT account_id, count(*)::int AS n FROM changed_users GROUP BY account_id) c WHERE a.id = c.account_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(
      `CREATE TRIGGER users_count_inserted AFTER INSERT ON users REFERENCING NEW TABLE AS changed_users FOR EACH STATEMENT EXECUTE FUNCTION accounts_count_users()`,
    );
    await q.query(
      `CREATE TRIGGER users_count_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS changed_users FOR EACH STATEMENT EXECUTE FUNCTION accounts_count_users()`,
    );
    // after the trigger: a user inserted meanwhile is counted by one or the other, never twice (this runs locked)
    await q.query(`LOCK TABLE users IN SHARE MODE`);
    await q.query(`UPDATE accounts a SET user_count = (SELECT count(*) FROM users u WHERE u.account_id = a.id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER users_count_deleted ON users`);
    await q.query(`DROP TRIGGER users_count_inserted ON users`);
    await q.query(`DROP FUNCTION accounts_count_users()`);
    await q.query(`ALTER TABLE accounts DROP COLUMN user_count`);
  }
}
