import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `access_request_granted_spending(…)`: the grant of a sign-in whose code is checked in the same call
 * (`/ra` with a passcode), as a PL/pgSQL function. The statement the API built for it (the code's time
 * step or counter spent, the Granted request inserted only if the spend was won, the user's lastLogin)
 * is sent unnamed and planned again on every sign-in: 0.2–0.47 ms of planning against 0.08–0.13 ms of
 * execution (EXPLAIN ANALYZE), where a function keeps its plans for the life of the server connection.
 * Named prepared statements would do as much, but not through PgBouncer in transaction mode, which the
 * API supports; a function does.
 *
 * The replay guard is otpSpendUpdate's (authenticators.repository.ts) and the row written is
 * AccessRequestsRepository.insertDecided's, frozen here as a migration must be: a change of those needs a
 * migration that replaces this function. grant-spending.spec.ts writes a grant both ways and compares
 * the rows, and checks the spent state.
 *
 * The spend is won when every row holding the code's secret (`p_authenticator_ids`) changed; otherwise
 * nothing is written and the answer is null, as the statement's was: a TOTP step is spent only when no
 * step at or after it was spent before, an HOTP counter by moving the stored next-expected counter past
 * it unless it is already past it. `p_time_step` for a TOTP code, `p_hotp_counter` for an HOTP one.
 */
export class GrantSpendingFunction1766900000000 implements MigrationInterface {
  name = 'GrantSpendingFunction1766900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION access_request_granted_spending(
        p_account_id uuid, p_resource_id uuid, p_user_id uuid, p_identity text, p_email text, p_phone text, p_language text,
        p_claims jsonb, p_callback_action text, p_callback_target text, p_channel text, p_ip text, p_remote_host text,
        p_status text, p_failed_attempts integer, p_granted_at timestamptz, p_authenticator text, p_created_at timestamptz, p_bypassed boolean,
        p_authenticator_ids uuid[], p_time_step bigint, p_hotp_counter bigint)
      RETURNS uuid
      LANGUAGE plpgsql VOLATILE AS $$
      #variable_conflict use_column
      DECLARE
        spent integer;
        request_id uuid;
      BEGIN
        IF p_time_step IS NOT NULL THEN
          UPDATE authenticators SET last_time_step = p_time_step
           WHERE account_id = p_account_id AND id = ANY(p_authenticator_ids) AND (last_time_step IS NULL OR last_time_step < p_time_step);
        ELSE
          UPDATE authenticators SET hotp_counter = p_hotp_counter + 1
           WHERE account_id = p_account_id AND id = ANY(p_authenticator_ids) AND hotp_counter <= p_hotp_counter;
        END IF;
        GET DIAGNOSTICS spent = ROW_COUNT;
        IF spent <> cardinality(p_authenticator_ids) THEN
          RETURN NULL;
        END IF;
        INSERT INTO access_requests (account_id, resource_id, user_id, identity, email, phone, language, claims, callback_action,
                                     callback_target, channel, ip, remote_host, status, failed_attempts, granted_at, authenticator,
                                     created_at, bypassed)
        VALUES (p_account_id, p_resource_id, p_user_id, p_identity, p_email, p_phone, p_language, p_claims, p_callback_action,
                p_callback_target, p_channel, p_ip, p_remote_host, p_status, p_failed_attempts, p_granted_at, p_authenticator,
                p_created_at, p_bypassed)
        RETURNING id INTO request_id;
        IF p_user_id IS NOT NULL THEN
          UPDATE users SET last_login = p_granted_at WHERE account_id = p_account_id AND id = p_user_id;
        END IF;
        RETURN request_id;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION access_request_granted_spending(uuid, uuid, uuid, text, text, text, text, jsonb, text, text, text, text, text,
                                                    text, integer, timestamptz, text, timestamptz, boolean, uuid[], bigint, bigint)`,
    );
  }
}
