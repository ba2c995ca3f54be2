import { AccountId, CodeLockoutScope, WrongCodeStreak } from '@twofold/domain';
import { Db } from '../transaction-context';

/** Where a streak counts: an address network (`scopeKey` its text) or a resource (`scopeKey` its id). */
export interface WrongCodeScopeKey {
  scope: CodeLockoutScope;
  scopeKey: string;
}

export type WrongCodeStreakRow = WrongCodeScopeKey & WrongCodeStreak;

/**
 * A wrong_code_streaks row as a statement returns it; as JSON (`wrong_code_streaks_after_user_lock`)
 * its times are ISO text.
 */
export interface StreakRecord {
  scope: CodeLockoutScope;
  scope_key: string;
  failures: number;
  last_failure_at: Date | string;
  locked_until: Date | string | null;
}

export function streakRowOf(record: StreakRecord): WrongCodeStreakRow {
  return {
    scope: record.scope,
    scopeKey: record.scope_key,
    failures: record.failures,
    lastFailureAt: new Date(record.last_failure_at),
    lockedUntil: record.locked_until === null ? null : new Date(record.locked_until),
  };
}

/** A user's wrong codes per address network and per resource (libs/domain code-lockouts.ts says what they do). */
export class WrongCodeStreaksRepository {
  constructor(private readonly db: Db) {}

  /** The user's streaks in the given scopes (those that exist): one statement. */
  async of(accountId: AccountId, userId: string, keys: readonly WrongCodeScopeKey[]): Promise<WrongCodeStreakRow[]> {
    const records: StreakRecord[] = await this.db.manager().query(
      `SELECT s.scope, s.scope_key, s.failures, s.last_failure_at, s.locked_until
       FROM wrong_code_streaks s JOIN unnest($3::text[], $4::text[]) AS k(scope, scope_key) USING (scope, scope_key)
       WHERE s.account_id = $1 AND s.user_id = $2`,
      [accountId, userId, keys.map((key) => key.scope), keys.map((key) => key.scopeKey)],
    );
    return records.map(streakRowOf);
  }

  /** Writes the streaks as given (inserted or replaced), in one statement. */
  async save(accountId: AccountId, userId: string, rows: readonly WrongCodeStreakRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.manager().query(
      `INSERT INTO wrong_code_streaks (account_id, user_id, scope, scope_key, failures, last_failure_at, locked_until)
       SELECT $1, $2, r.scope, r.scope_key, r.failures, r.last_failure_at, r.locked_until
       FROM unnest($3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[])
         AS r(scope, scope_key, failures, last_failure_at, locked_until)
       ON CONFLICT (account_id, user_id, scope, scope_key) DO UPDATE SET
         failures = excluded.failures, last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until`,
      [
        accountId,
        userId,
        rows.map((row) => row.scope),
        rows.map((row) => row.scopeKey),
        rows.map((row) => row.failures),
        rows.map((row) => row.lastFailureAt),
        rows.map((row) => row.lockedUntil),
      ],
    );
  }

  /** Clears the given streaks of the user, or all of them without `keys`. Returns how many were locked at `now`. */
  async clear(accountId: AccountId, userId: string, now: Date, keys?: readonly WrongCodeScopeKey[]): Promise<number> {
    const [records]: [{ locked_until: Date | null }[], number] = keys
      ? await this.db.manager().query(
          `DELETE FROM wrong_code_streaks s USING unnest($3::text[], $4::text[]) AS k(scope, scope_key)
           WHERE s.account_id = $1 AND s.user_id = $2 AND s.scope = k.scope AND s.scope_key = k.scope_key
           RETURNING s.locked_until`,
          [accountId, userId, keys.map((key) => key.scope), keys.map((key) => key.scopeKey)],
        )
      : await this.db
          .manager()
          .query(`DELETE FROM wrong_code_streaks WHERE account_id = $1 AND user_id = $2 RETURNING locked_until`, [accountId, userId]);
    return records.filter((record) => record.locked_until !== null && record.locked_until.getTime() > now.getTime()).length;
  }
}
