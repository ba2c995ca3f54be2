import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users_page_with_details(account, limit, offset)`: `GET /users` without a filter (the page a
 * directory sync or a portal walks through) as a PL/pgSQL function, for the reason of
 * 1766600000000-users-by-identity-function: PostgreSQL keeps a function's plans per server connection,
 * while the statement sent by the API is planned again on every call (pgbench, one client, a page of
 * 100 users with their details: 2.3–2.8 ms sent as a statement against 1.5–1.6 ms prepared). Works
 * through PgBouncer in transaction mode, which named prepared statements do not.
 *
 * `plan_cache_mode = force_generic_plan`: left to choose, PostgreSQL would plan every call again,
 * because it cannot cost a generic plan's LIMIT and OFFSET (it assumes a tenth of the account's users,
 * each with its five aggregated details) and prices it far above the custom one; the plan is the same
 * either way (the account's users read by `users_account_created` in the page's order).
 *
 * The statement is UsersRepository.listWithDetails' without a filter (USER_DETAILS_COLUMNS in
 * users.repository.ts), frozen here as a migration must be: a change of those needs a migration that
 * replaces this function. users-with-details-functions.spec.ts compares the two.
 */
export class UsersPageFunction1766800000000 implements MigrationInterface {
  name = 'UsersPageFunction1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION users_page_with_details(p_account_id uuid, p_limit integer, p_offset integer)
      RETURNS TABLE (id uuid, account_id uuid, identity text, name text, email text, is_locked boolean, source text,
                     created_at timestamptz, last_login timestamptz, groups text[], kinds text[], phones text[],
                     custom_fields json, code_lockouts json)
      LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
      #variable_conflict use_column
      BEGIN
        RETURN QUERY
        SELECT u.id, u.account_id, u.identity, u.name, u.email, u.is_locked, u.source, u.created_at, u.last_login,
          ARRAY(SELECT g.name FROM user_groups ug JOIN groups g ON g.id = ug.group_id
                 WHERE ug.user_id = u.id AND ug.account_id = u.account_id ORDER BY lower(g.name)) AS groups,
          ARRAY(SELECT DISTINCT a.kind FROM authenticators a WHERE a.account_id = u.account_id AND a.user_id = u.id) AS kinds,
          ARRAY(SELECT p.number FROM phones p WHERE p.user_id = u.id AND p.account_id = u.account_id ORDER BY p.number) AS phones,
          COALESCE((SELECT json_agg(json_build_object('name', f.name, 'value', f.value) ORDER BY f.name)
                      FROM custom_fields f WHERE f.user_id = u.id AND f.account_id = u.account_id), '[]'::json) AS custom_fields,
          COALESCE((SELECT json_agg(json_build_object('scope', s.scope, 'scopeKey', s.scope_key, 'failures', s.failures,
                            'lockedUntil', s.locked_until, 'resourceName', r.name) ORDER BY s.locked_until, s.scope, s.scope_key)
                      FROM wrong_code_streaks s
                      LEFT JOIN resources r ON r.account_id = s.account_id
                            AND r.id::text = CASE WHEN s.scope = 'resource' THEN s.scope_key ELSE split_part(s.scope_key, '@', 2) END
                     WHERE s.account_id = u.account_id AND s.user_id = u.id AND s.locked_until IS NOT NULL), '[]'::json) AS code_lockouts
          FROM users u
         WHERE u.account_id = p_account_id
         ORDER BY u.created_at, u.id
         LIMIT p_limit OFFSET p_offset;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION users_page_with_details(uuid, integer, integer)`);
  }
}
