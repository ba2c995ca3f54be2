import { AccountId, DayRange, identityKey, Page } from '@twofold/domain';
import { EntityManager, In } from 'typeorm';
import { Db } from '../transaction-context';
import { isForeignKeyViolation } from './constraint-violations';
import { dayPageAndTotal } from './day-page';
import { OtpSpend, otpSpendUpdate } from './authenticators.repository';
import { identityMatch } from './users.repository';
import { AccessRequestEntity, AccessRequestStatus, ResourceEntity } from '../entities';

export type NewAccessRequest = Pick<
  AccessRequestEntity,
  'resourceId' | 'userId' | 'identity' | 'email' | 'phone' | 'language' | 'claims' | 'callbackAction' | 'callbackTarget' | 'createdAt'
> &
  Partial<Pick<AccessRequestEntity, 'channel' | 'signUpGroups' | 'ip' | 'remoteHost'>>;

/** A request written with its outcome (`ra`, `md`). */
export type DecidedAccessRequest = NewAccessRequest &
  Pick<AccessRequestEntity, 'status' | 'failedAttempts' | 'grantedAt' | 'authenticator'> &
  Partial<Pick<AccessRequestEntity, 'bypassed'>>;

/** What a decision writes beside the status (the fields of a history item). */
export type AccessDecision = Partial<
  Pick<
    AccessRequestEntity,
    'userId' | 'grantedAt' | 'authenticator' | 'ip' | 'remoteHost' | 'twoFADeviceIp' | 'countryCode' | 'region' | 'city' | 'bypassed'
  >
>;

/** What the history shows of a request. */
export type AccessHistoryRow = Pick<
  AccessRequestEntity,
  | 'id'
  | 'identity'
  | 'status'
  | 'createdAt'
  | 'grantedAt'
  | 'authenticator'
  | 'countryCode'
  | 'region'
  | 'city'
  | 'remoteHost'
  | 'ip'
  | 'twoFADeviceIp'
  | 'bypassed'
  | 'channel'
> & { resourceName: string | null };

export interface AccessHistoryFilter {
  /** one past UTC day */
  day: DayRange;
  /** the day gets no new rows (`isSettledDay`): its total is remembered */
  settled: boolean;
  identity?: string;
}

/**
 * "Still awaiting", as a change of one request by id says it. Written `status = 'AwaitingAuthentication'`,
 * it lets the planner use the partial index of awaiting requests (account_id, created_at) for the change
 * and read every awaiting request of the account instead of one row by primary key: 20 ms per decision
 * at 40 000 awaiting requests in `npm run bench:api`. The statuses are a closed set (CHECK
 * constraint), so "none of the decided ones" means the same and cannot be matched to that index.
 */
const STILL_AWAITING = "status NOT IN ('Granted', 'Denied', 'Expired')";

/** The column each field of a decision is written to. */
const DECISION_COLUMNS: Record<keyof AccessDecision, string> = {
  userId: 'user_id',
  grantedAt: 'granted_at',
  authenticator: 'authenticator',
  ip: 'ip',
  remoteHost: 'remote_host',
  twoFADeviceIp: 'two_fa_device_ip',
  countryCode: 'country_code',
  region: 'region',
  city: 'city',
  bypassed: 'bypassed',
};

let requestColumnsRead: string | undefined;

/**
 * Every column an entity read of a request carries (not the pending secret, which is never read with
 * it), under its property name, for the hand-written reads of the sign-in path. Taken from the entity's
 * metadata, so a column added to the entity is read here too.
 */
function requestColumns(manager: EntityManager): string {
  requestColumnsRead ??= manager.connection
    .getMetadata(AccessRequestEntity)
    .columns.filter((column) => column.isSelect)
    .map((column) => `r.${column.databaseName} AS "${column.propertyName}"`)
    .join(', ');
  return requestColumnsRead;
}

/**
 * The first eleven values of the hand-written INSERTs, in this column order: account_id, resource_id,
 * user_id, identity, email, phone, language, claims (jsonb), callback_action, callback_target, channel.
 */
function requestColumnValues(accountId: AccountId, values: NewAccessRequest): unknown[] {
  return [
    accountId,
    values.resourceId,
    values.userId,
    values.identity,
    values.email,
    values.phone,
    values.language,
    values.claims === null ? null : JSON.stringify(values.claims),
    values.callbackAction,
    values.callbackTarget,
    values.channel ?? 'page',
  ];
}

/**
 * Values 12 to 19 of the hand-written INSERTs of a decided request, after requestColumnValues' eleven:
 * ip, remote_host, status, failed_attempts, granted_at, authenticator, created_at, bypassed.
 */
function decidedColumnValues(values: DecidedAccessRequest): unknown[] {
  return [
    values.ip ?? null,
    values.remoteHost ?? null,
    values.status,
    values.failedAttempts,
    values.grantedAt,
    values.authenticator,
    values.createdAt,
    values.bypassed ?? false,
  ];
}

/**
 * PostgreSQL's foreign_key_violation on a request's user: the user was deleted after it was read
 * without its row lock and before its request was written.
 */
export function isRequestUserGone(error: unknown): boolean {
  return isForeignKeyViolation(error, 'access_requests_user_id_fkey');
}

/**
 * Access requests and their history. Every status change of one request is a conditional UPDATE on
 * its still being awaited (STILL_AWAITING): of parallel deciders exactly one wins, in any API process.
 */
export class AccessRequestsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AccessRequestEntity);
  }

  /**
   * POST /access/requests in one statement (the licence check, BEGIN, INSERT and COMMIT were
   * four round trips; `npm run bench:api`): the request is inserted only when its identity is a user
   * of the account, or a licence is free for the page to register them. Returns the
   * new request's id, or null when every licence is in use. The page's registration counts again
   * under the account lock: this is the early answer, not the guarantee.
   */
  async insertForKnownOrRegistrable(accountId: AccountId, values: NewAccessRequest): Promise<string | null> {
    const rows: { id: string }[] = await this.db.manager().query(
      `INSERT INTO access_requests (account_id, resource_id, user_id, identity, email, phone, language, claims,
                                    callback_action, callback_target, channel, sign_up_groups, status, failed_attempts, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, 'AwaitingAuthentication', 0, $13
        WHERE EXISTS (SELECT 1 FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$14', '$4')})
           OR (SELECT user_count < licenses FROM accounts WHERE id = $1)
       RETURNING id`,
      [...requestColumnValues(accountId, values), values.signUpGroups ?? null, values.createdAt, identityKey(values.identity)],
    );
    return rows[0]?.id ?? null;
  }

  /**
   * A request of the `ra` family written once, with its outcome (insert, then decide, then
   * the user's lastLogin were three round trips; `npm run bench:api`). A Granted one also sets the
   * user's lastLogin, in the same statement. Returns the request's id.
   */
  async insertDecided(accountId: AccountId, values: DecidedAccessRequest): Promise<string> {
    const lastLogin = values.status === 'Granted' && values.userId !== null;
    const rows: { id: string }[] = await this.db.manager().query(
      `WITH inserted AS (
         INSERT INTO access_requests (account_id, resource_id, user_id, identity, email, phone, language, claims, callback_action,
                                      callback_target, channel, ip, remote_host, status, failed_attempts, granted_at, authenticator, created_at,
                                      bypassed)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         RETURNING id
       )${lastLogin ? `, login AS (UPDATE users SET last_login = $16 WHERE account_id = $1 AND id = $3)` : ''}
       SELECT id FROM inserted`,
      [...requestColumnValues(accountId, values), ...decidedColumnValues(values)],
    );
    return rows[0].id;
  }

  /**
   * The same, Granted by a code spent in the same call, with the user's lastLogin: null, and nothing
   * written, when the code's time step or counter was spent first. One call of the function
   * `access_request_granted_spending` (its migration says why a function: the statement was planned
   * again on every sign-in), whose replay guard is otpSpendUpdate's.
   */
  async insertGrantedSpending(accountId: AccountId, values: DecidedAccessRequest, spend: OtpSpend): Promise<string | null> {
    if (values.status !== 'Granted') throw new Error(`a spent code grants: ${values.status} is not a grant`);
    const rows: { id: string | null }[] = await this.db.manager().query(
      `SELECT access_request_granted_spending($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13,
                                              $14, $15, $16, $17, $18, $19, $20::uuid[], $21::bigint, $22::bigint) AS id`,
      [
        ...requestColumnValues(accountId, values),
        ...decidedColumnValues(values),
        spend.ids,
        spend.kind === 'totp' ? spend.timeStep : null,
        spend.kind === 'hotp' ? spend.counter : null,
      ],
    );
    return rows[0]?.id ?? null;
  }

  findById(accountId: AccountId, id: string): Promise<AccessRequestEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  /** The access page's lookup: the request id in its URL is all the visitor has, so not scoped by account. */
  findForPage(id: string): Promise<AccessRequestEntity | null> {
    return this.repo().findOneBy({ id });
  }

  /**
   * The row locked for the rest of the transaction: code submissions of one request queue up. Written
   * by hand, as the other statements of a sign-in: TypeORM's query building and entity hydration were a
   * tenth of the CPU profile of `/ra/challenge` (`npm run bench:api -- --profile`).
   */
  async findByIdForUpdate(accountId: AccountId, id: string): Promise<AccessRequestEntity | null> {
    const manager = this.db.manager();
    const rows: Partial<AccessRequestEntity>[] = await manager.query(
      `SELECT ${requestColumns(manager)} FROM access_requests r WHERE r.account_id = $1 AND r.id = $2 FOR UPDATE`,
      [accountId, id],
    );
    return rows[0] ? Object.assign(new AccessRequestEntity(), rows[0]) : null;
  }

  /**
   * Up to `limit` awaiting requests of any account created at or before `createdUpTo` become Expired,
   * and the authenticator-app secret a page offered them is erased; returns how many. Rows a decision
   * holds are skipped (that decision settles them), so instances sweeping at once never wait on each
   * other or on a sign-in.
   */
  async expireStale(createdUpTo: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await this.db.manager().query(
      `UPDATE access_requests SET status = 'Expired', pending_secret_enc = NULL
        WHERE id = ANY(ARRAY(SELECT id FROM access_requests WHERE status = 'AwaitingAuthentication' AND created_at <= $1
                              LIMIT $2 FOR UPDATE SKIP LOCKED))
          AND ${STILL_AWAITING}`,
      [createdUpTo, limit],
    );
    return affected;
  }

  /**
   * One page of a day's history, oldest first, with each request's resource name, and the day's total
   * (remembered once the day is settled); with `identity`, only that login (case-insensitively).
   */
  async list(accountId: AccountId, filter: AccessHistoryFilter, page: Page): Promise<[AccessHistoryRow[], number]> {
    return dayPageAndTotal<AccessHistoryRow>(
      this.db.manager(),
      {
        list: 'history',
        // the login is compared case-insensitively by PostgreSQL's lower(), which its index is built on
        filterArgs: [accountId, filter.day.from, filter.day.to, filter.identity ?? null],
        limit: page.limit,
        offset: page.offset,
      },
      // the login as given: lower-casing it here could disagree with PostgreSQL's lower() on some letters
      filter.settled ? { day: filter.day.day, filter: JSON.stringify({ identity: filter.identity ?? null }) } : undefined,
    );
  }

  /** Names of the account's resources by id, for a polled request's resourceName. */
  async resourceNames(accountId: AccountId, resourceIds: readonly string[]): Promise<Map<string, string>> {
    if (resourceIds.length === 0) return new Map();
    const rows = await this.db
      .manager()
      .getRepository(ResourceEntity)
      .find({ where: { accountId, id: In([...new Set(resourceIds)]) }, select: { id: true, name: true } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async setUser(accountId: AccountId, id: string, userId: string): Promise<void> {
    await this.repo().update({ accountId, id }, { userId });
  }

  /** The first visit's address; later visits keep it. */
  async recordVisit(accountId: AccountId, id: string, address: { ip: string; remoteHost: string }): Promise<void> {
    await this.repo()
      .createQueryBuilder()
      .update()
      .set({ ip: address.ip, remoteHost: address.remoteHost })
      .where('account_id = :accountId AND id = :id AND ip IS NULL', { accountId, id })
      .execute();
  }

  /** The encrypted authenticator-app secret offered on this request's page, if one was. */
  async pendingSecret(accountId: AccountId, id: string): Promise<Buffer | null> {
    const rows: { pending_secret_enc: Buffer | null }[] = await this.db
      .manager()
      .query('SELECT pending_secret_enc FROM access_requests WHERE account_id = $1 AND id = $2', [accountId, id]);
    return rows[0]?.pending_secret_enc ?? null;
  }

  /** Keeps the first secret offered: a reload or a parallel visit shows the same one. */
  async setPendingSecretOnce(accountId: AccountId, id: string, secretEnc: Buffer): Promise<void> {
    await this.db
      .manager()
      .query('UPDATE access_requests SET pending_secret_enc = $3 WHERE account_id = $1 AND id = $2 AND pending_secret_enc IS NULL', [
        accountId,
        id,
        secretEnc,
      ]);
  }

  /**
   * Counts a wrong code on an awaiting request; the `limit`-th makes it Denied. Returns the new count
   * and status, or null when the request was no longer awaiting.
   */
  async recordFailedAttempt(
    accountId: AccountId,
    id: string,
    limit: number,
  ): Promise<{ failedAttempts: number; status: AccessRequestStatus } | null> {
    const rows: { failed_attempts: number; status: AccessRequestStatus }[] = await this.db.manager().query(
      `UPDATE access_requests
          SET failed_attempts = failed_attempts + 1,
              status = CASE WHEN failed_attempts + 1 >= $3 THEN 'Denied' ELSE status END,
              pending_secret_enc = CASE WHEN failed_attempts + 1 >= $3 THEN NULL ELSE pending_secret_enc END
        WHERE account_id = $1 AND id = $2 AND ${STILL_AWAITING}
        RETURNING failed_attempts, status`,
      [accountId, id, limit],
    );
    // node-postgres returns [rows, affected] for UPDATE ... RETURNING through TypeORM
    const row = Array.isArray(rows[0]) ? (rows[0] as unknown as { failed_attempts: number; status: AccessRequestStatus }[])[0] : rows[0];
    return row ? { failedAttempts: row.failed_attempts, status: row.status } : null;
  }

  /**
   * Moves an awaiting request to its final status; true for exactly one of parallel callers. A pending
   * secret is dropped: once decided, the request can no longer enroll anything. `login`: the user whose
   * lastLogin is set, in the same statement and only when this call decided the request (a grant was
   * two round trips).
   */
  async decide(
    accountId: AccountId,
    id: string,
    status: Exclude<AccessRequestStatus, 'AwaitingAuthentication'>,
    decision: AccessDecision = {},
    login?: { userId: string; at: Date },
  ): Promise<boolean> {
    const params: unknown[] = [accountId, id, status];
    const update = decisionUpdate(params, decision);
    if (login === undefined) {
      const [, affected]: [unknown, number] = await this.db.manager().query(update, params);
      return affected === 1;
    }
    const rows: { decided: number }[] = await this.db.manager().query(
      `WITH decided AS (${update} RETURNING id), ${lastLoginUpdate(params, login)}
       SELECT count(*)::int AS decided FROM decided`,
      params,
    );
    return rows[0].decided === 1;
  }

  /**
   * A grant by a code, the code spent in the same statement (otpSpendUpdate) with the user's lastLogin
   * (a spend before the grant was a round trip of its own). `replayed`: the code's time step or counter
   * was spent first, and the request is left as it was; `superseded`: another attempt decided the
   * request first, and the code is spent all the same (as a check that spends before granting would).
   */
  async grantSpending(
    accountId: AccountId,
    id: string,
    decision: AccessDecision,
    login: { userId: string; at: Date },
    spend: OtpSpend,
  ): Promise<'granted' | 'superseded' | 'replayed'> {
    const params: unknown[] = [accountId, id, 'Granted'];
    const spent = otpSpendUpdate(spend, params);
    const update = `${decisionUpdate(params, decision)} AND (SELECT count(*) FROM spent) = ${spend.ids.length}`;
    const rows: { spent: number; decided: number }[] = await this.db.manager().query(
      `WITH spent AS (${spent} RETURNING 1), decided AS (${update} RETURNING id), ${lastLoginUpdate(params, login)}
       SELECT (SELECT count(*) FROM spent)::int AS spent, (SELECT count(*) FROM decided)::int AS decided`,
      params,
    );
    if (rows[0].spent !== spend.ids.length) return 'replayed';
    return rows[0].decided === 1 ? 'granted' : 'superseded';
  }
}

/** The conditional UPDATE of a decision: `params` holds the account ($1), the request ($2) and the status ($3), and takes the decision's values. */
function decisionUpdate(params: unknown[], decision: AccessDecision): string {
  let set = 'status = $3, pending_secret_enc = NULL';
  for (const field of Object.keys(DECISION_COLUMNS) as (keyof AccessDecision)[]) {
    const value = decision[field];
    if (value !== undefined) set += `, ${DECISION_COLUMNS[field]} = $${params.push(value)}`;
  }
  return `UPDATE access_requests SET ${set} WHERE account_id = $1 AND id = $2 AND ${STILL_AWAITING}`;
}

/** The CTE that sets the user's lastLogin only when the CTE `decided` decided the request. */
function lastLoginUpdate(params: unknown[], login: { userId: string; at: Date }): string {
  return `login AS (UPDATE users u SET last_login = $${params.push(login.at)} FROM decided
                     WHERE u.account_id = $1 AND u.id = $${params.push(login.userId)})`;
}
