import { AccountId, IpListAction, IpListInput, Page } from '@twofold/domain';
import { QueryFailedError } from 'typeorm';
import { Db } from '../transaction-context';

/** A stored IP list; `resources` sorted by id (empty: every resource). */
export interface IpListRow {
  id: string;
  name: string;
  action: IpListAction;
  ranges: string[];
  resources: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** An account's lists as one statement saw them, with the revision they are at (null: never had a list). */
export interface IpListsSnapshot {
  revision: string | null;
  lists: IpListRow[];
}

const LIST_COLUMNS = `l.id, l.name, l.action, l.ranges, l.created_at AS "createdAt", l.updated_at AS "updatedAt",
  COALESCE((SELECT array_agg(r.resource_id::text ORDER BY r.resource_id) FROM ip_list_resources r
             WHERE r.ip_list_id = l.id AND r.account_id = l.account_id), '{}'::text[]) AS resources`;

/** PostgreSQL's foreign_key_violation on the resource a list names: the resource is still in a list. */
export function isIpListResourceInUse(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; table?: string };
  return driverError.code === '23503' && driverError.table === 'ip_list_resources';
}

/**
 * IP lists. Every change takes a new `accounts.ip_lists_revision` in its transaction: the
 * access paths read that value with a query they already make and compile the lists again only when
 * it moved (apps/api/src/ip-lists/ip-list-policy.ts).
 */
export class IpListsRepository {
  constructor(private readonly db: Db) {}

  async list(accountId: AccountId): Promise<IpListRow[]> {
    return this.db
      .manager()
      .query(`SELECT ${LIST_COLUMNS} FROM ip_lists l WHERE l.account_id = $1 ORDER BY l.created_at, l.id`, [accountId]);
  }

  /** One page of the account's lists, oldest first, and how many it has. */
  async page(accountId: AccountId, page: Page): Promise<[IpListRow[], number]> {
    const rows: IpListRow[] = await this.db
      .manager()
      .query(`SELECT ${LIST_COLUMNS} FROM ip_lists l WHERE l.account_id = $1 ORDER BY l.created_at, l.id OFFSET $2 LIMIT $3`, [
        accountId,
        page.offset,
        page.limit,
      ]);
    const counted: { n: number }[] = await this.db
      .manager()
      .query('SELECT count(*)::int AS n FROM ip_lists WHERE account_id = $1', [accountId]);
    return [rows, counted[0].n];
  }

  async findById(accountId: AccountId, id: string): Promise<IpListRow | null> {
    const rows: IpListRow[] = await this.db
      .manager()
      .query(`SELECT ${LIST_COLUMNS} FROM ip_lists l WHERE l.account_id = $1 AND l.id = $2`, [accountId, id]);
    return rows[0] ?? null;
  }

  /** The ids among `ids` that are resources of this account. */
  async resourcesOfAccount(accountId: AccountId, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await this.db
      .manager()
      .query('SELECT id::text AS id FROM resources WHERE account_id = $1 AND id = ANY($2::uuid[])', [accountId, ids]);
    return new Set(rows.map((row) => row.id));
  }

  /** Names of the lists that name this resource. */
  async namesNamingResource(accountId: AccountId, resourceId: string): Promise<string[]> {
    const rows: { name: string }[] = await this.db.manager().query(
      `SELECT l.name FROM ip_lists l JOIN ip_list_resources r ON r.ip_list_id = l.id AND r.account_id = l.account_id
        WHERE l.account_id = $1 AND r.resource_id = $2 ORDER BY l.created_at, l.id`,
      [accountId, resourceId],
    );
    return rows.map((row) => row.name);
  }

  async insert(accountId: AccountId, input: IpListInput, now: Date): Promise<string> {
    const rows: { id: string }[] = await this.db
      .manager()
      .query(
        `INSERT INTO ip_lists (account_id, name, action, ranges, created_at, updated_at) VALUES ($1, $2, $3, $4::text[], $5, $5) RETURNING id`,
        [accountId, input.name, input.action, input.ranges, now],
      );
    const id = rows[0].id;
    await this.setResources(accountId, id, input.resources);
    await this.newRevision(accountId);
    return id;
  }

  /** Replaces the whole list; false when the account has no such list. */
  async replace(accountId: AccountId, id: string, input: IpListInput, now: Date): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.db
      .manager()
      .query(`UPDATE ip_lists SET name = $3, action = $4, ranges = $5::text[], updated_at = $6 WHERE account_id = $1 AND id = $2`, [
        accountId,
        id,
        input.name,
        input.action,
        input.ranges,
        now,
      ]);
    if (affected === 0) return false;
    await this.db.manager().query('DELETE FROM ip_list_resources WHERE account_id = $1 AND ip_list_id = $2', [accountId, id]);
    await this.setResources(accountId, id, input.resources);
    await this.newRevision(accountId);
    return true;
  }

  async delete(accountId: AccountId, id: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.db
      .manager()
      .query('DELETE FROM ip_lists WHERE account_id = $1 AND id = $2', [accountId, id]);
    if (affected === 0) return false;
    await this.newRevision(accountId);
    return true;
  }

  /** The account's lists and their revision, read by one statement (one snapshot: the revision is the lists'). */
  async snapshot(accountId: AccountId): Promise<IpListsSnapshot> {
    const rows: {
      revision: string | null;
      lists: (Omit<IpListRow, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string })[];
    }[] = await this.db.manager().query(
      `SELECT (SELECT ip_lists_revision::text FROM accounts WHERE id = $1) AS revision,
                COALESCE((SELECT json_agg(x ORDER BY x."createdAt", x.id) FROM (SELECT ${LIST_COLUMNS} FROM ip_lists l WHERE l.account_id = $1) x),
                         '[]'::json) AS lists`,
      [accountId],
    );
    const row = rows[0];
    return {
      revision: row.revision,
      lists: row.lists.map((list) => ({ ...list, createdAt: new Date(list.createdAt), updatedAt: new Date(list.updatedAt) })),
    };
  }

  private async setResources(accountId: AccountId, id: string, resources: readonly string[]): Promise<void> {
    if (resources.length === 0) return;
    await this.db
      .manager()
      .query('INSERT INTO ip_list_resources (ip_list_id, account_id, resource_id) SELECT $1, $2, unnest($3::uuid[])', [
        id,
        accountId,
        resources,
      ]);
  }

  /** A value of the sequence, never seen before: every process's compiled copy of the lists is stale now. */
  private async newRevision(accountId: AccountId): Promise<void> {
    await this.db.manager().query(`UPDATE accounts SET ip_lists_revision = nextval('ip_lists_revision') WHERE id = $1`, [accountId]);
  }
}
