import { AccountId, IdentityFormat, identityKey } from '@twofold/domain';
import { Db } from '../transaction-context';
import { UserSource } from '../entities';
import { USER_COLUMNS, UserRow } from './user-row';

/**
 * Every table with a `user_id` column, and what renaming and merging users to an identity format
 * (`POST /settings/identity-format/apply`) does with its rows. A test compares these names
 * with the migrated schema, so a new table keyed by user cannot be forgotten by the merge.
 */
export const USER_ID_TABLES = {
  user_groups: 'union: the surviving user joins every group of the users merged into it',
  phones: 'union by number',
  custom_fields: "union by name (compared without case); of one name the oldest user's value is kept",
  authenticators:
    'moved with their replay state (TOTP step, HOTP counter); a secret held twice is kept once, with the later step and counter',
  wrong_code_streaks: 'merged per scope: the larger count, the later failure and the later lockout',
  access_requests: 'moved to the surviving user, with its new identity (history, pending requests)',
  enrollment_tokens: 'moved: a link sent to a merged user enrolls the surviving one',
  approvals: 'moved with their access requests: a pending approval of a merged user is decided for the surviving one',
  telegram_binding_links: 'moved: a Telegram link sent to a merged user binds the chat to the surviving one',
  standby_codes: "moved: a merged user's recovery and bypass codes sign the surviving one in",
  mobile_app_enrollment_tokens: 'moved: an app enrollment offered to a merged user enrolls the device for the surviving one',
  phone_codes:
    "moved with their access requests: a code sent to a merged user still answers its request, and the survivor's SMS limits count it",
  my_factors_pages: 'ended: a merged user\'s "my factors" page closes (it lives minutes); the portal opens a new one for the survivor',
} as const;

/** A user row as the apply reads it, under its row lock. */
export interface MergeableUser {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
  isLocked: boolean;
  source: UserSource;
  createdAt: Date;
  lastLogin: Date | null;
}

/** An OTP authenticator's identity and replay state, for finding one secret held twice. */
export interface MergeableAuthenticator {
  id: string;
  userId: string;
  kind: string;
  algorithm: string | null;
  secretEnc: Buffer | null;
  hotpCounter: string | null;
  lastTimeStep: string | null;
  disabled: boolean;
  createdAt: Date;
}

/** One merged user and the user it goes into, with its rank among the users merged there (1 = the oldest after the survivor). */
export interface MergeStep {
  merged: string;
  survivor: string;
  rank: number;
}

/** Where a renamed or merged user's rows go: the surviving user (itself when only renamed) and its new identity. */
export interface IdentityMove {
  userId: string;
  survivor: string;
  toIdentity: string;
}

/** The unnest of MergeSteps as `m(merged, survivor, rank)`: its parameters are $2, $3, $4. */
const STEPS = `unnest($2::uuid[], $3::uuid[], $4::int[]) AS m(merged, survivor, rank)`;

/**
 * The statements of the identity format's apply. Every method runs in the caller's transaction, takes
 * the account first and touches only that account's rows. The caller takes the locks first
 * (`lockAccount`, then `lockUsers`), in the order the rest of the code takes them.
 */
/** One secret's copies among merged users: the one kept with the state of all of them, and the ones dropped. */
export interface AuthenticatorFold {
  kept: string;
  lastTimeStep: string | null;
  hotpCounter: string | null;
  disabled: boolean;
  dropped: string[];
}

/** A user's fields as the apply leaves them. */
export type UserAfterApply = Pick<MergeableUser, 'id' | 'identity' | 'name' | 'email' | 'isLocked' | 'lastLogin'>;

/**
 * History rows one statement of the apply moves at most (about 0.35 s for 20 000 here), so that none
 * outlasts the statement timeout however long the history (200 000 rows in one statement took 3.5 s).
 * One user's rows are never split: a user with more is a statement of its own.
 */
export const HISTORY_ROWS_PER_STATEMENT = 20_000;

/**
 * Users read, locked, updated or deleted per statement by the apply: at 200 000 users one statement
 * for all of them passes the statement timeout (bench:identity-format); in batches each stays far
 * under it, and the apply is still one transaction. Reads and locks go in id order, page after page
 * (the order every other user lock takes). At 5 000 the deletion of merged users took up to 1.1 s a
 * batch on a busy 2-core machine (220 000 users, 20 000 merged), too near the 1.5 s timeout.
 */
export const USERS_PER_STATEMENT = 1_000;

/** Told after each statement of a batched write how many users it covered: the apply's progress. */
export type BatchDone = (users: number) => void;
const NO_PROGRESS: BatchDone = () => undefined;

export class UserMergesRepository {
  constructor(
    private readonly db: Db,
    private readonly usersPerStatement = USERS_PER_STATEMENT,
  ) {}

  private query<T>(sql: string, params: unknown[]): Promise<T> {
    return this.db.manager().query(sql, params);
  }

  /**
   * The account row, locked: user creations of the account queue up behind it (lockForUserCreation),
   * so no user appears between the plan and its execution. Returns the account's identity format.
   */
  async lockAccount(accountId: AccountId): Promise<IdentityFormat> {
    const rows: { identity_format: IdentityFormat }[] = await this.query('SELECT identity_format FROM accounts WHERE id = $1 FOR UPDATE', [
      accountId,
    ]);
    if (!rows[0]) throw new Error(`account ${accountId} does not exist`);
    return rows[0].identity_format;
  }

  /** The account's users without locks: what the plan is first made of. */
  async users(accountId: AccountId): Promise<MergeableUser[]> {
    return this.usersInPages(accountId, '');
  }

  /** The account's users in id order, usersPerStatement a statement, each page after the last id of the one before. */
  private async usersInPages(accountId: AccountId, lock: '' | 'FOR UPDATE'): Promise<MergeableUser[]> {
    const users: MergeableUser[] = [];
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows: UserRow[] = await this.query(
        `SELECT ${USER_COLUMNS} FROM users u WHERE u.account_id = $1 AND u.id > $2 ORDER BY u.id LIMIT $3 ${lock}`,
        [accountId, after, this.usersPerStatement],
      );
      users.push(...rows.map(userOfRow));
      if (rows.length < this.usersPerStatement) return users;
      after = rows[rows.length - 1].id;
    }
  }

  /**
   * The awaiting access requests of the users the apply renames or merges, locked before the users
   * (the order the access page and `ra/challenge` take: request, then user), so that a code check in
   * flight cannot deadlock with it. Decided requests are not locked first: nothing locks one and then
   * waits for its user, and there may be millions of them.
   */
  async lockRequestsOf(accountId: AccountId, userIds: readonly string[]): Promise<void> {
    await this.query(
      `SELECT id FROM access_requests
        WHERE account_id = $1 AND user_id = ANY($2::uuid[]) AND status = 'AwaitingAuthentication' ORDER BY id FOR UPDATE`,
      [accountId, [...userIds]],
    );
  }

  /**
   * Requests whose page has not found their user yet (`user_id` is set at the first visit): the
   * identity they were created with decides which user the page finds or registers.
   */
  async awaitingWithoutUser(accountId: AccountId): Promise<{ id: string; identity: string }[]> {
    return this.query(
      `SELECT id, identity FROM access_requests WHERE account_id = $1 AND status = 'AwaitingAuthentication' AND user_id IS NULL ORDER BY id`,
      [accountId],
    );
  }

  async renameRequests(accountId: AccountId, renames: readonly { id: string; identity: string }[]): Promise<void> {
    if (renames.length === 0) return;
    await this.query(
      `UPDATE access_requests r SET identity = m.identity FROM unnest($2::uuid[], $3::text[]) AS m(id, identity)
        WHERE r.account_id = $1 AND r.id = m.id`,
      [accountId, renames.map((rename) => rename.id), renames.map((rename) => rename.identity)],
    );
  }

  /**
   * Every user of the account, locked in id order (the row locks code checks and user changes take):
   * a login in flight finishes first, and its counter update is read here; a later one waits for the
   * apply and finds the renamed user.
   */
  async lockUsers(accountId: AccountId): Promise<MergeableUser[]> {
    return this.usersInPages(accountId, 'FOR UPDATE');
  }

  /** The number of custom fields each survivor would hold after the merge (names compared without case). */
  async customFieldCounts(accountId: AccountId, all: readonly MergeStep[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const steps of stepsBySurvivor(all, this.usersPerStatement)) {
      for (const [survivor, n] of await this.customFieldCountsOf(accountId, steps)) counts.set(survivor, n);
    }
    return counts;
  }

  private async customFieldCountsOf(accountId: AccountId, steps: readonly MergeStep[]): Promise<Map<string, number>> {
    const rows: { survivor: string; n: number }[] = await this.query(
      `SELECT s.survivor, count(DISTINCT lower(f.name))::int AS n
         FROM (SELECT DISTINCT survivor AS member, survivor FROM ${STEPS}
               UNION ALL SELECT merged AS member, survivor FROM ${STEPS}) s
         JOIN custom_fields f ON f.account_id = $1 AND f.user_id = s.member
        GROUP BY s.survivor`,
      [accountId, ...columnsOf(steps)],
    );
    return new Map(rows.map((row) => [row.survivor, row.n]));
  }

  /** The OTP authenticators (with secrets) of the users of the merges: survivors and merged. */
  async authenticatorsOf(accountId: AccountId, userIds: readonly string[]): Promise<MergeableAuthenticator[]> {
    const found: MergeableAuthenticator[] = [];
    for (const batch of chunks(userIds, this.usersPerStatement)) found.push(...(await this.authenticatorsOfBatch(accountId, batch)));
    // oldest first over all batches, as one statement's ORDER BY created_at, id gave them (uuids compare as their hex)
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private async authenticatorsOfBatch(accountId: AccountId, userIds: readonly string[]): Promise<MergeableAuthenticator[]> {
    const rows: {
      id: string;
      user_id: string;
      kind: string;
      algorithm: string | null;
      secret_enc: Buffer | null;
      hotp_counter: string | null;
      last_time_step: string | null;
      disabled: boolean;
      created_at: Date;
    }[] = await this.query(
      `SELECT id, user_id, kind, algorithm, secret_enc, hotp_counter::text, last_time_step::text, disabled, created_at
         FROM authenticators
        WHERE account_id = $1 AND user_id = ANY($2::uuid[]) AND secret_enc IS NOT NULL
        ORDER BY created_at, id`,
      [accountId, [...userIds]],
    );
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      kind: row.kind,
      algorithm: row.algorithm,
      secretEnc: row.secret_enc,
      hotpCounter: row.hotp_counter,
      lastTimeStep: row.last_time_step,
      disabled: row.disabled,
      createdAt: row.created_at,
    }));
  }

  /**
   * Each secret held twice becomes one authenticator: `kept` takes the latest spent step and counter
   * of all of its copies and stays disabled if any was (a copy must not undo a disabling), the others
   * go. Two statements whatever the number of folds.
   */
  async foldAuthenticators(accountId: AccountId, all: readonly AuthenticatorFold[]): Promise<void> {
    for (const folds of chunks(all, this.usersPerStatement)) await this.foldAuthenticatorBatch(accountId, folds);
  }

  private async foldAuthenticatorBatch(accountId: AccountId, folds: readonly AuthenticatorFold[]): Promise<void> {
    await this.query(
      `UPDATE authenticators a SET last_time_step = f.last_time_step, hotp_counter = f.hotp_counter, disabled = f.disabled
         FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::boolean[]) AS f(id, last_time_step, hotp_counter, disabled)
        WHERE a.account_id = $1 AND a.id = f.id`,
      [
        accountId,
        folds.map((fold) => fold.kept),
        folds.map((fold) => fold.lastTimeStep),
        folds.map((fold) => fold.hotpCounter),
        folds.map((fold) => fold.disabled),
      ],
    );
    await this.query(`DELETE FROM authenticators WHERE account_id = $1 AND id = ANY($2::uuid[])`, [
      accountId,
      folds.flatMap((fold) => fold.dropped),
    ]);
  }

  /** Everything keyed by the merged users moves to their survivors (see USER_ID_TABLES), before the merged users are deleted. */
  async moveUserRows(accountId: AccountId, all: readonly MergeStep[], moved: BatchDone = NO_PROGRESS): Promise<void> {
    // a survivor's merged users move in one batch: its fields and streaks are chosen among all of them
    for (const steps of stepsBySurvivor(all, this.usersPerStatement)) {
      await this.moveUserRowBatch(accountId, steps);
      moved(steps.length);
    }
  }

  private async moveUserRowBatch(accountId: AccountId, steps: readonly MergeStep[]): Promise<void> {
    const params = [accountId, ...columnsOf(steps)];
    await this.query(
      `INSERT INTO user_groups (user_id, group_id, account_id)
       SELECT m.survivor, ug.group_id, ug.account_id FROM ${STEPS} JOIN user_groups ug ON ug.account_id = $1 AND ug.user_id = m.merged
       ON CONFLICT DO NOTHING`,
      params,
    );
    await this.query(
      `INSERT INTO phones (account_id, user_id, number, created_at)
       SELECT p.account_id, m.survivor, p.number, p.created_at FROM ${STEPS} JOIN phones p ON p.account_id = $1 AND p.user_id = m.merged
       ON CONFLICT (user_id, number) DO NOTHING`,
      params,
    );
    // of one name, the survivor's own field stays; among the merged users the oldest (lowest rank) wins
    await this.query(
      `INSERT INTO custom_fields (account_id, user_id, name, value)
       SELECT DISTINCT ON (m.survivor, lower(f.name)) f.account_id, m.survivor, f.name, f.value
         FROM ${STEPS} JOIN custom_fields f ON f.account_id = $1 AND f.user_id = m.merged
        ORDER BY m.survivor, lower(f.name), m.rank
       ON CONFLICT (user_id, lower(name)) DO NOTHING`,
      params,
    );
    await this.query(
      `INSERT INTO wrong_code_streaks AS w (account_id, user_id, scope, scope_key, failures, last_failure_at, locked_until)
       SELECT s.account_id, m.survivor, s.scope, s.scope_key, max(s.failures), max(s.last_failure_at), max(s.locked_until)
         FROM ${STEPS} JOIN wrong_code_streaks s ON s.account_id = $1 AND s.user_id = m.merged
        GROUP BY s.account_id, m.survivor, s.scope, s.scope_key
       ON CONFLICT (account_id, user_id, scope, scope_key) DO UPDATE SET
         failures = GREATEST(w.failures, EXCLUDED.failures),
         last_failure_at = GREATEST(w.last_failure_at, EXCLUDED.last_failure_at),
         locked_until = GREATEST(w.locked_until, EXCLUDED.locked_until)`,
      params,
    );
    await this.query(
      `UPDATE authenticators a SET user_id = m.survivor FROM ${STEPS} WHERE a.account_id = $1 AND a.user_id = m.merged`,
      params,
    );
    await this.query(
      `UPDATE enrollment_tokens t SET user_id = m.survivor FROM ${STEPS} WHERE t.account_id = $1 AND t.user_id = m.merged`,
      params,
    );
    await this.query(`UPDATE approvals a SET user_id = m.survivor FROM ${STEPS} WHERE a.account_id = $1 AND a.user_id = m.merged`, params);
    await this.query(
      `UPDATE telegram_binding_links l SET user_id = m.survivor FROM ${STEPS} WHERE l.account_id = $1 AND l.user_id = m.merged`,
      params,
    );
    await this.query(
      `UPDATE standby_codes c SET user_id = m.survivor FROM ${STEPS} WHERE c.account_id = $1 AND c.user_id = m.merged`,
      params,
    );
    await this.query(
      `UPDATE mobile_app_enrollment_tokens t SET user_id = m.survivor FROM ${STEPS} WHERE t.account_id = $1 AND t.user_id = m.merged`,
      params,
    );
    await this.query(
      `UPDATE phone_codes c SET user_id = m.survivor FROM ${STEPS} WHERE c.account_id = $1 AND c.user_id = m.merged`,
      params,
    );
    await this.query(`DELETE FROM my_factors_pages p USING ${STEPS} WHERE p.account_id = $1 AND p.user_id = m.merged`, params);
  }

  /**
   * Access requests of renamed and merged users take the surviving user and its new identity: the
   * history filter finds them under it. A settled day's remembered totals may count differently now,
   * so they are invalidated the way a deletion invalidates them (past_rows_version).
   */
  async moveAccessRequests(accountId: AccountId, moves: readonly IdentityMove[]): Promise<void> {
    if (moves.length === 0) return;
    const counts: { user_id: string; n: number }[] = await this.query(
      `SELECT user_id, count(*)::int AS n FROM access_requests WHERE account_id = $1 AND user_id = ANY($2::uuid[]) GROUP BY user_id`,
      [accountId, moves.map((move) => move.userId)],
    );
    const rowsOf = new Map(counts.map((count) => [count.user_id, count.n]));
    for (const batch of batchesOfRows(moves, (move) => rowsOf.get(move.userId) ?? 0, HISTORY_ROWS_PER_STATEMENT)) {
      await this.query(
        `UPDATE access_requests r SET user_id = m.survivor, identity = m.to_identity
           FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS m(user_id, survivor, to_identity)
          WHERE r.account_id = $1 AND r.user_id = m.user_id`,
        [accountId, batch.map((move) => move.userId), batch.map((move) => move.survivor), batch.map((move) => move.toIdentity)],
      );
    }
    await this.query(`UPDATE accounts SET past_rows_version = past_rows_version + 1 WHERE id = $1`, [accountId]);
  }

  /** The merged users go (their rows left behind go with them; the user count follows by trigger). */
  async deleteUsers(accountId: AccountId, userIds: readonly string[], deleted: BatchDone = NO_PROGRESS): Promise<void> {
    for (const batch of chunks(userIds, this.usersPerStatement)) {
      await this.query(`DELETE FROM users WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, batch]);
      deleted(batch.length);
    }
  }

  /** The survivors' and renamed users' fields after the apply, in one statement. */
  async updateUsers(accountId: AccountId, all: readonly UserAfterApply[], updated: BatchDone = NO_PROGRESS): Promise<void> {
    for (const users of chunks(all, this.usersPerStatement)) {
      await this.updateUserBatch(accountId, users);
      updated(users.length);
    }
  }

  private async updateUserBatch(accountId: AccountId, users: readonly UserAfterApply[]): Promise<void> {
    await this.query(
      `UPDATE users u SET identity = v.identity, identity_key = v.identity_key, collision_tag = '', name = v.name, email = v.email,
              is_locked = v.is_locked, last_login = v.last_login
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::timestamptz[], $8::text[])
              AS v(id, identity, name, email, is_locked, last_login, identity_key)
        WHERE u.account_id = $1 AND u.id = v.id`,
      [
        accountId,
        users.map((user) => user.id),
        users.map((user) => user.identity),
        users.map((user) => user.name),
        users.map((user) => user.email),
        users.map((user) => user.isLocked),
        users.map((user) => user.lastLogin),
        users.map((user) => identityKey(user.identity)),
      ],
    );
  }
}

/**
 * Merge steps in batches of about `size`, never splitting one survivor's steps: what a survivor keeps
 * (a custom field of one name, the larger streak) is chosen among all of its merged users at once.
 */
export function stepsBySurvivor(steps: readonly MergeStep[], size: number): MergeStep[][] {
  const bySurvivor = new Map<string, MergeStep[]>();
  for (const step of steps) {
    const group = bySurvivor.get(step.survivor);
    if (group) group.push(step);
    else bySurvivor.set(step.survivor, [step]);
  }
  const batches: MergeStep[][] = [];
  let batch: MergeStep[] = [];
  for (const group of bySurvivor.values()) {
    if (batch.length > 0 && batch.length + group.length > size) {
      batches.push(batch);
      batch = [];
    }
    batch.push(...group);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** `items` in order, in slices of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** `items` in order, cut into batches of at most `limit` rows (an item of more rows is a batch of its own); items without rows are left out. */
export function batchesOfRows<T>(items: readonly T[], rowsOf: (item: T) => number, limit: number): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let rows = 0;
  for (const item of items) {
    const n = rowsOf(item);
    if (n === 0) continue;
    if (batch.length > 0 && rows + n > limit) {
      batches.push(batch);
      batch = [];
      rows = 0;
    }
    batch.push(item);
    rows += n;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function userOfRow(row: UserRow): MergeableUser {
  return {
    id: row.id,
    identity: row.identity,
    name: row.name,
    email: row.email,
    isLocked: row.is_locked,
    source: row.source,
    createdAt: row.created_at,
    lastLogin: row.last_login,
  };
}

function columnsOf(steps: readonly MergeStep[]): [string[], string[], number[]] {
  return [steps.map((step) => step.merged), steps.map((step) => step.survivor), steps.map((step) => step.rank)];
}
