import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `wrong_code_streaks_after_user_lock(account, user, scopes, scope keys)`: locks the user's row, then
 * returns the user's streaks in those scopes as JSON, read after the lock was granted. A code check
 * reads the streaks with the user's row lock in one round trip instead of two.
 *
 * Why a function: in READ COMMITTED a statement reads every table as of its start, before it waited
 * for a row lock, so a streak read by the locking statement itself would miss the wrong code a
 * parallel guess committed while this one waited, and parallel guesses could pass the cap. A VOLATILE
 * function takes a fresh snapshot for each statement it runs (PostgreSQL's documented rule), so its
 * read, which follows its own lock, sees every committed count. Called from the locking SELECT's
 * column list: whether PostgreSQL computes that column before or after the SELECT's own lock, the
 * function has locked the row first (locking it again in the same transaction does not wait).
 */
export class WrongCodeStreaksAfterUserLock1766500000000 implements MigrationInterface {
  name = 'WrongCodeStreaksAfterUserLock1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION wrong_code_streaks_after_user_lock(p_account_id uuid, p_user_id uuid, p_scopes text[], p_scope_keys text[])
      RETURNS json LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM 1 FROM users WHERE account_id = p_account_id AND id = p_user_id FOR UPDATE;
        RETURN COALESCE((
          SELECT json_agg(json_build_object('scope', s.scope, 'scope_key', s.scope_key, 'failures', s.failures,
                                            'last_failure_at', s.last_failure_at, 'locked_until', s.locked_until))
            FROM wrong_code_streaks s JOIN unnest(p_scopes, p_scope_keys) AS k(scope, scope_key) USING (scope, scope_key)
           WHERE s.account_id = p_account_id AND s.user_id = p_user_id), '[]'::json);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION wrong_code_streaks_after_user_lock(uuid, uuid, text[], text[])`);
  }
}
