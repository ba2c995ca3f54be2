import { AccountId, CodeLockoutScope, identityKey, Page } from '@twofold/domain';
import { In } from 'typeorm';
import { Db } from '../transaction-context';
import { USER_COLUMNS, UserRow } from './user-row';
import { StreakRecord, streakRowOf, WrongCodeScopeKey, WrongCodeStreakRow } from './wrong-code-streaks.repository';
import {
  AuthenticatorEntity,
  AuthenticatorKind,
  CustomFieldEntity,
  PhoneEntity,
  UserEntity,
  UserGroupEntity,
  UserSource,
} from '../entities';

export interface NewUser {
  identity: string;
  name: string | null;
  email: string | null;
  source: UserSource;
  createdAt: Date;
}

export type UserChanges = Partial<Pick<UserEntity, 'identity' | 'name' | 'email' | 'isLocked' | 'lastLogin'>>;

/** What a user object shows beside the user row, for a batch of users read in four queries. */
export interface UserDetails {
  /** names of the user's groups, the system group not included (every user is in it) */
  groups: string[];
  authenticatorKinds: string[];
  phones: string[];
  customFields: { name: string; value: string }[];
  /** the user's code lockouts that were set, in force or ended (the caller compares `lockedUntil` with its clock) */
  codeLockouts: CodeLockoutRecord[];
}

/** A wrong-code streak that locked (wrong_code_streaks), with the resource's name for a resource's streak. */
export interface CodeLockoutRecord {
  scope: CodeLockoutScope;
  scopeKey: string;
  failures: number;
  lockedUntil: Date;
  resourceName: string | null;
}

interface AuthenticatorJson {
  id: string;
  kind: AuthenticatorKind;
  name: string;
  secretEnc: string | null;
  algorithm: string | null;
  digits: number | null;
  hotpCounter: string | null;
  lastTimeStep: string | null;
  totpDriftSteps: number;
  disabled: boolean;
  createdAt: string;
}

/** A user locked for a code check, with its first phone and its authenticators. */
export interface UserForCodeCheck {
  user: UserEntity;
  firstPhone: string | null;
  authenticators: AuthenticatorEntity[];
  /**
   * the account's `ip_lists_revision`, read with the user at no extra round trip: null when the account
   * never had an IP list (apps/api/src/ip-lists/ip-list-policy.ts)
   */
  ipListsRevision: string | null;
  /**
   * the user's wrong-code streaks in the scopes the lock was asked for, read after the lock was granted
   * (so exact while it is held); null when none were asked
   */
  streaks: WrongCodeStreakRow[] | null;
}

interface UserWithDetailsRow extends UserRow {
  groups: string[];
  kinds: string[];
  phones: string[];
  custom_fields: { name: string; value: string }[];
  code_lockouts: { scope: CodeLockoutScope; scopeKey: string; failures: number; lockedUntil: string; resourceName: string | null }[];
}

/**
 * A user's groups (by name, case-insensitively ordered), authenticator kinds, phones, custom fields
 * and code lockouts, each aggregated by an index look-up on (user_id, …): the columns `groups`,
 * `kinds`, `phones`, `custom_fields` and `code_lockouts` of a select over `users u`.
 */
export const USER_DETAILS_COLUMNS = `
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
             WHERE s.account_id = u.account_id AND s.user_id = u.id AND s.locked_until IS NOT NULL), '[]'::json) AS code_lockouts`;

function detailsOfRow(row: Pick<UserWithDetailsRow, 'groups' | 'kinds' | 'phones' | 'custom_fields' | 'code_lockouts'>): UserDetails {
  return {
    groups: row.groups,
    authenticatorKinds: row.kinds,
    phones: row.phones,
    customFields: row.custom_fields,
    codeLockouts: row.code_lockouts.map((lockout) => ({ ...lockout, lockedUntil: new Date(lockout.lockedUntil) })),
  };
}

/**
 * Users named by an identity, in a statement whose `$n` parameters are `keyParam` (identityKey of it)
 * and `exactParam` (the identity as received): by key; but in a group of users whose identities came to
 * share a key by migration (one of them has a collision tag), only by the exact identity, so that a
 * look-alike spelling never reaches another person's user.
 */
export function identityMatch(alias: string, keyParam: string, exactParam: string): string {
  return `${alias}.identity_key = ${keyParam} AND (${alias}.identity = ${exactParam} OR NOT EXISTS (
            SELECT 1 FROM users c WHERE c.account_id = ${alias}.account_id AND c.identity_key = ${keyParam} AND c.collision_tag <> ''))`;
}

/**
 * Users with their groups, phones and custom fields. Every method takes the account first; the
 * unique index users_account_identity (account, identity key, collision tag) is what keeps identities
 * unique: two identities are one user when their keys are equal (libs/domain identity-key.ts).
 */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(UserEntity);
  }

  async insert(accountId: AccountId, values: NewUser): Promise<UserEntity> {
    const rows: UserRow[] = await this.db.manager().query(
      `INSERT INTO users AS u (account_id, identity, identity_key, name, email, is_locked, source, created_at, last_login)
       VALUES ($1, $2, $7, $3, $4, false, $5, $6, NULL)
       RETURNING ${USER_COLUMNS}`,
      [accountId, values.identity, values.name, values.email, values.source, values.createdAt, identityKey(values.identity)],
    );
    return this.userOfRow(rows[0]);
  }

  /**
   * The groups of users whose identities came to share a key when identities began to be compared by
   * key (the younger ones carry a collision tag), each with every user of the key, oldest first: for an
   * administrator to rename or delete. Empty on any account created since.
   */
  async lookAlikeGroups(accountId: AccountId): Promise<{ identityKey: string; users: { id: string; identity: string }[] }[]> {
    return this.db.manager().query(
      `SELECT u.identity_key AS "identityKey",
              json_agg(json_build_object('id', u.id, 'identity', u.identity) ORDER BY u.created_at, u.id) AS users
         FROM users u
        WHERE u.account_id = $1
          AND u.identity_key IN (SELECT c.identity_key FROM users c WHERE c.account_id = $1 AND c.collision_tag <> '')
        GROUP BY u.identity_key
        ORDER BY u.identity_key`,
      [accountId],
    );
  }

  count(accountId: AccountId): Promise<number> {
    return this.repo().countBy({ accountId });
  }

  findById(accountId: AccountId, id: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  /** The row locked for the rest of the transaction: changes of one user's sets queue up. */
  findByIdForUpdate(accountId: AccountId, id: string): Promise<UserEntity | null> {
    return this.repo()
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.account_id = :accountId AND u.id = :id', { accountId, id })
      .getOne();
  }

  async findByIdentity(accountId: AccountId, identity: string): Promise<UserEntity | null> {
    const rows: UserRow[] = await this.db
      .manager()
      .query(`SELECT ${USER_COLUMNS} FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$2', '$3')}`, [
        accountId,
        identityKey(identity),
        identity,
      ]);
    return rows[0] ? this.userOfRow(rows[0]) : null;
  }

  /**
   * What a code check of the `ra` family needs, in one round trip (`npm run bench:api`):
   * the user by identity (`ra`, `md`) or id (`ra/challenge`), its row locked for the rest of the
   * transaction (one user's checks queue up behind it, so the wrong-code count read next is exact), its
   * first phone for the answer, and its authenticators in creation order; with `streakKeys`, its
   * wrong-code streaks in those scopes too, read after the lock by `wrong_code_streaks_after_user_lock`
   * (a read in the locking statement itself would see the table as it was before the lock was granted).
   * Null when the account has no such user.
   */
  lockForCodeCheck(
    accountId: AccountId,
    which: { identity: string } | { id: string },
    streakKeys?: readonly WrongCodeScopeKey[],
  ): Promise<UserForCodeCheck | null> {
    return this.readForCodeCheck(accountId, which, streakKeys, 'FOR UPDATE OF u');
  }

  /**
   * The same read without the row lock, for a look that checks nothing (the access page shown, a call
   * without a code): a lock taken outside a transaction would give the read a transaction id and a
   * commit to flush of its own, and make it wait for a sign-in of the user in progress, only to be
   * released at once. With `streakKeys`, the streaks are read by the statement itself: nothing is
   * counted on this read, so the snapshot of its start is all it needs.
   */
  findForCodeCheck(
    accountId: AccountId,
    which: { identity: string } | { id: string },
    streakKeys?: readonly WrongCodeScopeKey[],
  ): Promise<UserForCodeCheck | null> {
    return this.readForCodeCheck(accountId, which, streakKeys, '');
  }

  private async readForCodeCheck(
    accountId: AccountId,
    which: { identity: string } | { id: string },
    streakKeys: readonly WrongCodeScopeKey[] | undefined,
    lock: 'FOR UPDATE OF u' | '',
  ): Promise<UserForCodeCheck | null> {
    const [match, values]: [string, unknown[]] =
      'id' in which ? ['u.id = $2', [which.id]] : [identityMatch('u', '$2', '$3'), [identityKey(which.identity), which.identity]];
    const params: unknown[] = [accountId, ...values];
    const streaksColumn = streakKeys ? `${streaksOfUser(lock, params, streakKeys)} AS streaks,` : '';
    const rows: (UserRow & {
      first_phone: string | null;
      authenticators: AuthenticatorJson[];
      ip_lists_revision: string | null;
      streaks?: StreakRecord[];
    })[] = await this.db.manager().query(
      `SELECT ${USER_COLUMNS}, ${streaksColumn}
              (SELECT ac.ip_lists_revision::text FROM accounts ac WHERE ac.id = u.account_id) AS ip_lists_revision,
              (SELECT p.number FROM phones p WHERE p.user_id = u.id AND p.account_id = u.account_id ORDER BY p.number LIMIT 1) AS first_phone,
              COALESCE((SELECT json_agg(json_build_object(
                          'id', a.id, 'kind', a.kind, 'name', a.name, 'secretEnc', encode(a.secret_enc, 'base64'),
                          'algorithm', a.algorithm, 'digits', a.digits, 'hotpCounter', a.hotp_counter::text,
                          'lastTimeStep', a.last_time_step::text, 'totpDriftSteps', a.totp_drift_steps,
                          'disabled', a.disabled, 'createdAt', a.created_at) ORDER BY a.created_at, a.id)
                          FROM authenticators a WHERE a.account_id = u.account_id AND a.user_id = u.id), '[]'::json) AS authenticators
         FROM users u
        WHERE u.account_id = $1 AND ${match}
          ${lock}`,
      params,
    );
    const row = rows[0];
    if (!row) return null;
    return {
      user: this.userOfRow(row),
      firstPhone: row.first_phone,
      ipListsRevision: row.ip_lists_revision,
      streaks: row.streaks ? row.streaks.map(streakRowOf) : null,
      authenticators: row.authenticators.map((a) =>
        Object.assign(new AuthenticatorEntity(), {
          id: a.id,
          accountId: row.account_id,
          userId: row.id,
          kind: a.kind,
          name: a.name,
          secretEnc: a.secretEnc === null ? null : Buffer.from(a.secretEnc, 'base64'),
          privateIdEnc: null,
          algorithm: a.algorithm,
          digits: a.digits,
          hotpCounter: a.hotpCounter,
          lastTimeStep: a.lastTimeStep,
          totpDriftSteps: a.totpDriftSteps,
          disabled: a.disabled,
          createdAt: new Date(a.createdAt),
        }),
      ),
    };
  }

  /** Built directly, not by TypeORM's `create()`, whose transformer showed in the profile of every page of users. */
  private userOfRow(row: UserRow): UserEntity {
    return Object.assign(new UserEntity(), {
      id: row.id,
      accountId: row.account_id,
      identity: row.identity,
      name: row.name,
      email: row.email,
      isLocked: row.is_locked,
      source: row.source,
      createdAt: row.created_at,
      lastLogin: row.last_login,
    });
  }

  /**
   * One page of users with their details in one round trip (`GET /users?identity=` made
   * six, measured by `npm run bench:api`): the groups, authenticator kinds, phones and custom fields
   * are aggregated per user by index look-ups on (user_id, …). Same order and contents as `list` +
   * `detailsOf`. By identity alone and unfiltered (the hot calls), the statement runs inside the
   * PL/pgSQL functions `users_by_identity_with_details` and `users_page_with_details`, whose plans
   * PostgreSQL keeps per connection: sent as a statement, it is planned again on every call (three
   * times its execution by identity, about 0.9 ms of a page of 100).
   */
  async listWithDetails(
    accountId: AccountId,
    filter: { identity?: string; groupId?: string },
    page: Page,
  ): Promise<{ user: UserEntity; details: UserDetails }[]> {
    const rows = await this.selectWithDetails(accountId, filter, page);
    return rows.map((row) => ({ user: this.userOfRow(row), details: detailsOfRow(row) }));
  }

  private selectWithDetails(
    accountId: AccountId,
    filter: { identity?: string; groupId?: string },
    page: Page,
  ): Promise<UserWithDetailsRow[]> {
    // the two hot shapes run the same statement inside functions that keep its plan per connection
    // (migrations 1766600000000-users-by-identity-function and 1766800000000-users-page-function)
    if (filter.identity !== undefined && filter.groupId === undefined) {
      return this.db
        .manager()
        .query('SELECT * FROM users_by_identity_with_details($1, $2, $3, $4, $5)', [
          accountId,
          identityKey(filter.identity),
          filter.identity,
          page.limit,
          page.offset,
        ]);
    }
    if (filter.identity === undefined && filter.groupId === undefined) {
      return this.db.manager().query('SELECT * FROM users_page_with_details($1, $2, $3)', [accountId, page.limit, page.offset]);
    }
    const params: unknown[] = [accountId, page.limit, page.offset];
    let identityFilter = '';
    if (filter.identity !== undefined) {
      params.push(identityKey(filter.identity), filter.identity);
      identityFilter = `AND ${identityMatch('u', `$${params.length - 1}`, `$${params.length}`)}`;
    }
    if (filter.groupId !== undefined) {
      // a group's members. With the id a parameter the planner knows how many there are: a small group is read
      // by user_groups_group and sorted, a large one by users_account_created, each row checked by the key
      params.push(filter.groupId);
      identityFilter += ` AND u.id IN (SELECT ug.user_id FROM user_groups ug WHERE ug.account_id = $1 AND ug.group_id = $${params.length})`;
    }
    return this.db.manager().query(
      `SELECT ${USER_COLUMNS},
              ${USER_DETAILS_COLUMNS}
         FROM users u
        WHERE u.account_id = $1 ${identityFilter}
        ORDER BY u.created_at, u.id
        LIMIT $2 OFFSET $3`,
      params,
    );
  }

  async update(accountId: AccountId, id: string, changes: UserChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    // a renamed user gets the key of its new identity, and leaves any group of look-alikes it was in
    const keyed = changes.identity === undefined ? changes : { ...changes, identityKey: identityKey(changes.identity), collisionTag: '' };
    await this.repo().update({ accountId, id }, keyed);
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }

  /** Groups, authenticator kinds, phones and custom fields of many users at once, in one round trip. */
  async detailsOf(accountId: AccountId, userIds: readonly string[]): Promise<Map<string, UserDetails>> {
    const details = new Map<string, UserDetails>(
      userIds.map((id) => [id, { groups: [], authenticatorKinds: [], phones: [], customFields: [], codeLockouts: [] }]),
    );
    if (userIds.length === 0) return details;
    const rows: Array<Pick<UserWithDetailsRow, 'id' | 'groups' | 'kinds' | 'phones' | 'custom_fields' | 'code_lockouts'>> = await this.db
      .manager()
      .query(`SELECT u.id, ${USER_DETAILS_COLUMNS} FROM users u WHERE u.account_id = $1 AND u.id = ANY($2::uuid[])`, [
        accountId,
        [...userIds],
      ]);
    for (const row of rows) details.set(row.id, detailsOfRow(row));
    return details;
  }

  async addToGroups(accountId: AccountId, userId: string, groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.db
      .manager()
      .createQueryBuilder()
      .insert()
      .into(UserGroupEntity)
      .values(groupIds.map((groupId) => ({ accountId, userId, groupId })))
      .orIgnore()
      .execute();
  }

  async removeFromGroups(accountId: AccountId, userId: string, groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.db
      .manager()
      .getRepository(UserGroupEntity)
      .delete({ accountId, userId, groupId: In([...groupIds]) });
  }

  /**
   * The user's stored phone numbers, in number order. They are also the user's SMS method (a user with
   * a phone lists `Sms`), which the authenticator API shows and removes by phone id.
   */
  phoneRowsOf(accountId: AccountId, userId: string): Promise<PhoneEntity[]> {
    return this.db
      .manager()
      .getRepository(PhoneEntity)
      .find({ where: { accountId, userId }, order: { number: 'ASC', id: 'ASC' } });
  }

  async phonesOf(accountId: AccountId, userId: string): Promise<string[]> {
    return (await this.phoneRowsOf(accountId, userId)).map((row) => row.number);
  }

  /** Removes one phone of the user; false when the user has no phone of that id. */
  async deletePhone(accountId: AccountId, userId: string, id: string): Promise<boolean> {
    const result = await this.db.manager().getRepository(PhoneEntity).delete({ accountId, userId, id });
    return (result.affected ?? 0) > 0;
  }

  /** Removes every phone of the user; returns the removed rows. */
  async deleteAllPhones(accountId: AccountId, userId: string): Promise<PhoneEntity[]> {
    const rows = await this.phoneRowsOf(accountId, userId);
    if (rows.length > 0) await this.db.manager().getRepository(PhoneEntity).delete({ accountId, userId });
    return rows;
  }

  async changePhones(
    accountId: AccountId,
    userId: string,
    change: { add: readonly string[]; remove: readonly string[] },
    at: Date,
  ): Promise<void> {
    const phones = this.db.manager().getRepository(PhoneEntity);
    if (change.remove.length > 0) await phones.delete({ accountId, userId, number: In([...change.remove]) });
    if (change.add.length > 0) await phones.insert(change.add.map((number) => ({ accountId, userId, number, createdAt: at })));
  }

  async customFieldsOf(accountId: AccountId, userId: string): Promise<{ name: string; value: string }[]> {
    const rows = await this.db
      .manager()
      .getRepository(CustomFieldEntity)
      .find({ where: { accountId, userId }, order: { name: 'ASC' } });
    return rows.map((row) => ({ name: row.name, value: row.value }));
  }

  /** The user's fields become exactly `fields` (callers hold the user row lock). */
  async replaceCustomFields(accountId: AccountId, userId: string, fields: readonly { name: string; value: string }[]): Promise<void> {
    const repo = this.db.manager().getRepository(CustomFieldEntity);
    await repo.delete({ accountId, userId });
    if (fields.length > 0) await repo.insert(fields.map((field) => ({ accountId, userId, name: field.name, value: field.value })));
  }
}

/**
 * The user's wrong-code streaks in `keys`' scopes as JSON: after the row lock, by
 * `wrong_code_streaks_after_user_lock` (whose read must follow the lock), or, without a lock, by a
 * subquery of the same shape as that function's answer.
 */
function streaksOfUser(lock: 'FOR UPDATE OF u' | '', params: unknown[], keys: readonly WrongCodeScopeKey[]): string {
  const scopes = `$${params.push(keys.map((key) => key.scope))}::text[]`;
  const scopeKeys = `$${params.push(keys.map((key) => key.scopeKey))}::text[]`;
  if (lock) return `wrong_code_streaks_after_user_lock(u.account_id, u.id, ${scopes}, ${scopeKeys})`;
  return `COALESCE((SELECT json_agg(json_build_object('scope', s.scope, 'scope_key', s.scope_key, 'failures', s.failures,
                                                      'last_failure_at', s.last_failure_at, 'locked_until', s.locked_until))
                      FROM wrong_code_streaks s JOIN unnest(${scopes}, ${scopeKeys}) AS k(scope, scope_key) USING (scope, scope_key)
                     WHERE s.account_id = u.account_id AND s.user_id = u.id), '[]'::json)`;
}
