import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';

/** An administrator as the console's sign-in sees them, found by e-mail across accounts. */
export interface ConsoleAdministrator {
  id: string;
  accountId: AccountId;
  identity: string;
  name: string;
  role: string;
  status: string;
  temporaryLockedUntil: Date | null;
  mailLanguage: 'ru' | 'en' | null;
  accountDisplayName: string | null;
}

export interface ConsoleSignInRow {
  id: string;
  accountId: AccountId;
  administratorId: string;
  salt: Buffer;
  codeHash: Buffer;
}

/** A live session with its administrator's current state (a lock ends the session at the next request). */
export interface ConsoleSessionRow {
  id: string;
  accountId: AccountId;
  administratorId: string;
  identity: string;
  role: string;
  status: string;
  secondFactor: string;
  createdAt: Date;
  lastSeenAt: Date;
  identityFormat: string;
}

const ADMIN_COLUMNS = `a.id, a.account_id, a.identity, a.name, a.role, a.status, a.temporary_locked_until, a.mail_language, c.display_name`;

interface AdminRecord {
  id: string;
  account_id: AccountId;
  identity: string;
  name: string;
  role: string;
  status: string;
  temporary_locked_until: Date | null;
  mail_language: 'ru' | 'en' | null;
  display_name: string | null;
}

function toAdministrator(r: AdminRecord): ConsoleAdministrator {
  return {
    id: r.id,
    accountId: r.account_id,
    identity: r.identity,
    name: r.name,
    role: r.role,
    status: r.status,
    temporaryLockedUntil: r.temporary_locked_until,
    mailLanguage: r.mail_language,
    accountDisplayName: r.display_name,
  };
}

/** The console's first screen: an account at a glance. */
export interface ConsoleDashboardFigures {
  licenses: number;
  users: number;
  lockedUsers: number;
  /** users with a code lockout in force (wrong codes) */
  codeLockouts: number;
  signInsGranted: number;
  signInsDenied: number;
  approvalsWaiting: number;
}

/** Sign-ins, sessions and the second-factor counters of the administrators' console. */
export class ConsoleRepository {
  constructor(private readonly db: Db) {}

  /**
   * The administrators with this e-mail in any account (the console is signed in to before any
   * account is known), oldest account first; case-insensitive like administrators_account_identity.
   */
  async administratorsByEmail(email: string): Promise<ConsoleAdministrator[]> {
    const rows: AdminRecord[] = await this.db.manager().query(
      `SELECT ${ADMIN_COLUMNS} FROM administrators a JOIN accounts c ON c.id = a.account_id
         WHERE lower(a.identity) = lower($1) ORDER BY c.created_at, c.id`,
      [email],
    );
    return rows.map(toAdministrator);
  }

  async administratorById(accountId: AccountId, id: string): Promise<ConsoleAdministrator | null> {
    const rows: AdminRecord[] = await this.db
      .manager()
      .query(`SELECT ${ADMIN_COLUMNS} FROM administrators a JOIN accounts c ON c.id = a.account_id WHERE a.account_id = $1 AND a.id = $2`, [
        accountId,
        id,
      ]);
    return rows[0] ? toAdministrator(rows[0]) : null;
  }

  async secondFactorSecret(accountId: AccountId, id: string): Promise<Buffer | null> {
    const rows: { second_factor_secret_enc: Buffer | null }[] = await this.db
      .manager()
      .query(`SELECT second_factor_secret_enc FROM administrators WHERE account_id = $1 AND id = $2`, [accountId, id]);
    return rows[0]?.second_factor_secret_enc ?? null;
  }

  async resetSecondFactorFailures(accountId: AccountId, id: string): Promise<void> {
    await this.db
      .manager()
      .query(`UPDATE administrators SET second_factor_failures = 0, temporary_locked_until = NULL WHERE account_id = $1 AND id = $2`, [
        accountId,
        id,
      ]);
  }

  async markSelfLocked(accountId: AccountId, id: string): Promise<void> {
    await this.db.manager().query(`UPDATE administrators SET self_locked = true WHERE account_id = $1 AND id = $2`, [accountId, id]);
  }

  /** Clears the mark of a self-lock; whether there was one. */
  async clearSelfLocked(accountId: AccountId, id: string): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.db
      .manager()
      .query(`UPDATE administrators SET self_locked = false WHERE account_id = $1 AND id = $2 AND self_locked RETURNING id`, [
        accountId,
        id,
      ]);
    return rows.length === 1;
  }

  /** A TemporaryLocked administrator whose lock has run out is Active again (read at the next sign-in). */
  async endTemporaryLock(accountId: AccountId, id: string, now: Date): Promise<void> {
    await this.db.manager().query(
      `UPDATE administrators SET status = 'Active', temporary_locked_until = NULL, second_factor_failures = 0
       WHERE account_id = $1 AND id = $2 AND status = 'TemporaryLocked' AND temporary_locked_until <= $3`,
      [accountId, id, now],
    );
  }

  async insertSignIn(
    accountId: AccountId,
    administratorId: string,
    code: { salt: Buffer; codeHash: Buffer },
    expiresAt: Date,
    now: Date,
  ): Promise<string> {
    const rows: { id: string }[] = await this.db.manager().query(
      `INSERT INTO console_sign_ins (account_id, administrator_id, salt, code_hash, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [accountId, administratorId, code.salt, code.codeHash, expiresAt, now],
    );
    return rows[0].id;
  }

  /** The sign-ins of this e-mail still open: unused, unexpired, with tries left. */
  async openSignIns(email: string, maxAttempts: number, now: Date): Promise<ConsoleSignInRow[]> {
    const rows: { id: string; account_id: AccountId; administrator_id: string; salt: Buffer; code_hash: Buffer }[] = await this.db
      .manager()
      .query(
        `SELECT s.id, s.account_id, s.administrator_id, s.salt, s.code_hash
         FROM console_sign_ins s JOIN administrators a ON a.id = s.administrator_id AND a.account_id = s.account_id
         WHERE lower(a.identity) = lower($1) AND s.used_at IS NULL AND s.expires_at > $2 AND s.attempts < $3
         ORDER BY s.created_at DESC LIMIT 20`,
        [email, now, maxAttempts],
      );
    return rows.map((r) => ({
      id: r.id,
      accountId: r.account_id,
      administratorId: r.administrator_id,
      salt: r.salt,
      codeHash: r.code_hash,
    }));
  }

  /** One wrong code on each of these sign-ins. */
  async recordWrongCode(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.manager().query(`UPDATE console_sign_ins SET attempts = attempts + 1 WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Spends the sign-in; false when another request spent it first. */
  async useSignIn(id: string, now: Date): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.db
      .manager()
      .query(`UPDATE console_sign_ins SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND expires_at > $2 RETURNING id`, [id, now]);
    return rows.length === 1;
  }

  /**
   * One more wrong second factor in a row; the `max`-th makes the administrator TemporaryLocked until
   * `lockedUntil`. Returns the failures counted and whether this one locked.
   */
  async recordSecondFactorFailure(
    accountId: AccountId,
    id: string,
    max: number,
    lockedUntil: Date,
  ): Promise<{ failures: number; locked: boolean }> {
    // an UPDATE … RETURNING answers [rows, count] through TypeORM
    const [rows]: [{ second_factor_failures: number; status: string }[], number] = await this.db.manager().query(
      `UPDATE administrators SET
         second_factor_failures = second_factor_failures + 1,
         status = CASE WHEN second_factor_failures + 1 >= $3 AND status = 'Active' THEN 'TemporaryLocked' ELSE status END,
         temporary_locked_until = CASE WHEN second_factor_failures + 1 >= $3 AND status = 'Active' THEN $4 ELSE temporary_locked_until END
       WHERE account_id = $1 AND id = $2 RETURNING second_factor_failures, status`,
      [accountId, id, max, lockedUntil],
    );
    const row = rows[0];
    return { failures: row?.second_factor_failures ?? 0, locked: row?.second_factor_failures === max && row.status === 'TemporaryLocked' };
  }

  /**
   * A right second factor: the failures start again, the TOTP step is spent (a step already used, or
   * an older one, is refused: false) and the sign-in is the last login.
   */
  async recordSecondFactorSuccess(accountId: AccountId, id: string, timeStep: number, now: Date): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.db.manager().query(
      `UPDATE administrators SET second_factor_failures = 0, second_factor_last_step = $3, last_login_date = $4
       WHERE account_id = $1 AND id = $2 AND status = 'Active' AND (second_factor_last_step IS NULL OR second_factor_last_step < $3)
       RETURNING id`,
      [accountId, id, timeStep, now],
    );
    return rows.length === 1;
  }

  async insertSession(values: {
    tokenHash: Buffer;
    accountId: AccountId;
    administratorId: string;
    secondFactor: string;
    address: string | null;
    now: Date;
  }): Promise<string> {
    const rows: { id: string }[] = await this.db.manager().query(
      `INSERT INTO console_sessions (token_hash, account_id, administrator_id, second_factor, address, created_at, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`,
      [values.tokenHash, values.accountId, values.administratorId, values.secondFactor, values.address, values.now],
    );
    return rows[0].id;
  }

  /** The session of this token hash, not revoked, with its administrator's current role and status. */
  async sessionByTokenHash(tokenHash: Buffer): Promise<ConsoleSessionRow | null> {
    const rows: {
      id: string;
      account_id: AccountId;
      administrator_id: string;
      identity: string;
      role: string;
      status: string;
      second_factor: string;
      created_at: Date;
      last_seen_at: Date;
      identity_format: string;
    }[] = await this.db.manager().query(
      `SELECT s.id, s.account_id, s.administrator_id, a.identity, a.role, a.status, s.second_factor, s.created_at,
              s.last_seen_at, c.identity_format
       FROM console_sessions s
       JOIN administrators a ON a.id = s.administrator_id AND a.account_id = s.account_id
       JOIN accounts c ON c.id = s.account_id
       WHERE s.token_hash = $1 AND s.revoked_at IS NULL`,
      [tokenHash],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      accountId: r.account_id,
      administratorId: r.administrator_id,
      identity: r.identity,
      role: r.role,
      status: r.status,
      secondFactor: r.second_factor,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      identityFormat: r.identity_format,
    };
  }

  async touchSession(id: string, now: Date): Promise<void> {
    await this.db.manager().query(`UPDATE console_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`, [id, now]);
  }

  async revokeSession(id: string, now: Date): Promise<void> {
    await this.db.manager().query(`UPDATE console_sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, now]);
  }

  /** Ends every session of the administrator (a lock, a role change, a sign-out everywhere). */
  async revokeSessionsOf(accountId: AccountId, administratorId: string, now: Date): Promise<number> {
    const [rows]: [unknown[], number] = await this.db
      .manager()
      .query(
        `UPDATE console_sessions SET revoked_at = $3 WHERE account_id = $1 AND administrator_id = $2 AND revoked_at IS NULL RETURNING id`,
        [accountId, administratorId, now],
      );
    return rows.length;
  }

  /**
   * One statement, each figure by an index of its table: the account's users (users_account_identity),
   * the day's access requests (access_requests_account_created), waiting approvals, lockouts in force.
   */
  async dashboard(accountId: AccountId, dayStart: Date, now: Date): Promise<ConsoleDashboardFigures> {
    const rows: Record<string, number>[] = await this.db.manager().query(
      `SELECT
         (SELECT licenses FROM accounts WHERE id = $1) AS licenses,
         (SELECT count(*)::int FROM users WHERE account_id = $1) AS users,
         (SELECT count(*)::int FROM users WHERE account_id = $1 AND is_locked) AS locked_users,
         (SELECT count(DISTINCT user_id)::int FROM wrong_code_streaks WHERE account_id = $1 AND locked_until > $3) AS code_lockouts,
         (SELECT count(*)::int FROM access_requests WHERE account_id = $1 AND created_at >= $2 AND status = 'Granted') AS granted,
         (SELECT count(*)::int FROM access_requests WHERE account_id = $1 AND created_at >= $2 AND status = 'Denied') AS denied,
         (SELECT count(*)::int FROM approvals WHERE account_id = $1 AND status = 'Pending' AND expires_at > $3) AS approvals`,
      [accountId, dayStart, now],
    );
    const r = rows[0];
    return {
      licenses: r['licenses'],
      users: r['users'],
      lockedUsers: r['locked_users'],
      codeLockouts: r['code_lockouts'],
      signInsGranted: r['granted'],
      signInsDenied: r['denied'],
      approvalsWaiting: r['approvals'],
    };
  }
}
