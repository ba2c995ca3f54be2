import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users_by_identity_with_details(account, identity key, identity, limit, offset)`: GET /users?identity=
 * (every directory sync and portal asks it for each user) as a PL/pgSQL function, because PostgreSQL
 * keeps the plan of a function's statement for the life of the server connection, while the same
 * statement sent by the API (unnamed, as TypeORM and pg send it) is planned again on every call: with
 * its five aggregated details that planning was 0.35–0.5 ms against 0.1–0.15 ms of execution
 * (EXPLAIN ANALYZE), and the function answers the same in a fifth of the time (pgbench, one client).
 * Named prepared statements would do as much, but not through PgBouncer in transaction mode, which the
 * API supports; a function does.
 *
 * The statement is UsersRepository.listWithDetails' with the identity filter (identityMatch and
 * USER_DETAILS_COLUMNS in users.repository.ts), frozen here as a migration must be: a change of those
 * needs a migration that replaces this function. users-with-details-functions.spec.ts compares the two.
 */
export class UsersByIdentityFunction1766600000000 implements MigrationInterface {
  name = 'UsersByIdentityFunction1766600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION users_by_identity_with_details(p_account_id uuid, p_identity_key text, p_identity text, p_limit integer, p_offset integer)
      RETURNS TABLE (id uuid, account_id uuid, identity text, name text, email text, is_locked boolean, source text,
                     created_at timestamptz, last_login timestamptz, groups text[], kinds text[], phones text[],
                     custom_fields json, code_lockouts json)
      LANGUAGE plpgsql STABLE AS $$
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
           AND u.identity_key = p_identity_key
           AND (u.identity = p_identity OR NOT EXISTS (
                 SELECT 1 FROM users c WHERE c.account_id = u.account_id AND c.identity_key = p_identity_key AND c.collision_tag <> ''))
         ORDER BY u.created_at, u.id
         LIMIT p_limit OFFSET p_offset;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION users_by_identity_with_details(uuid, text, text, integer, integer)`);
  }
}
