import { EntityManager } from 'typeorm';

/**
 * Totals under this many rows are counted every time, not remembered: counting them takes a few
 * milliseconds at most, and remembering every filter of every small day would let a caller fill
 * `settled_day_totals` one cheap request at a time (each distinct `subject`, say, one more row).
 */
export const REMEMBERED_TOTAL_MIN_ROWS = 10_000;

/** Which day page a total belongs to: the journal (`GET /journal`) or the history (`GET /access/requests`). */
export type DayPageList = 'journal' | 'history';

/** Where a settled day's total is remembered (`settled_day_totals`). */
export interface RememberedTotalKey {
  list: DayPageList;
  /** yyyy-mm-dd, UTC */
  day: string;
  /** the filter in one canonical spelling: the same filter written in another order is the same key */
  filter: string;
}

export interface DayPageQuery {
  /** `FROM … WHERE …` selecting the day's filtered rows; `$1` is the account id */
  fromWhere: string;
  /** the values of fromWhere's parameters, `$1` (the account id) first */
  filterParams: unknown[];
  /** the page's select list against fromWhere: it includes the rows' `id` and no column called `total` */
  columns: string;
  /** the page's ORDER BY, a total order */
  orderBy: string;
  limit: number;
  offset: number;
}

/**
 * One page of a day's rows and the day's total (`totalElements`), by one statement. The total of a
 * settled day is read from `settled_day_totals`, valid only with the account's current
 * `past_rows_version` (migration 1764400000000-settled-day-totals explains it), so the page and the
 * remembered total still come in one statement; missing, it is counted and stored (two more).
 * `remembered` is undefined for a day that may still receive rows: its total is counted every time.
 */
export async function dayPageAndTotal<Row extends { id: string }>(
  manager: EntityManager,
  query: DayPageQuery,
  remembered: RememberedTotalKey | undefined,
): Promise<[Row[], number]> {
  const n = query.filterParams.length;
  const page = `SELECT ${query.columns} ${query.fromWhere} ORDER BY ${query.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...query.filterParams, query.limit, query.offset];
  const total = remembered
    ? `SELECT (SELECT m.total FROM settled_day_totals m JOIN accounts a ON a.id = m.account_id AND a.past_rows_version = m.version
                WHERE m.account_id = $1 AND m.list = $${n + 3} AND m.day = $${n + 4} AND m.filter = $${n + 5}) AS total`
    : `SELECT count(*)::int AS total ${query.fromWhere}`;
  const rows = (await manager.query(
    `SELECT t.total, p.* FROM (${total}) t LEFT JOIN LATERAL (${page}) p ON true`,
    remembered ? [...params, remembered.list, remembered.day, remembered.filter] : params,
  )) as Array<Row & { total: number | null }>;
  // an empty page still gives one row (the total's), with a null id. The rows keep their `total` column:
  // every caller maps them to its DTOs field by field, and copying each row without it (spread, then
  // delete, which also turns the copy into a slow dictionary object) cost about 45 µs a page of 100
  // (200 against 155 µs to map and serialize one, Node 24).
  const pageRows: Row[] = rows.filter((row) => row.id !== null);
  const found = rows[0]?.total ?? null;
  if (found !== null) return [pageRows, found];
  return [pageRows, await countAndRemember(manager, query, remembered as RememberedTotalKey)];
}

/**
 * One statement, one snapshot: the total and the version it is valid for; then stored (unless a newer
 * one is, or it is too small to be worth it).
 */
async function countAndRemember(manager: EntityManager, query: DayPageQuery, key: RememberedTotalKey): Promise<number> {
  const [counted] = (await manager.query(
    `SELECT count(*)::int AS total, (SELECT v.past_rows_version FROM accounts v WHERE v.id = $1) AS version ${query.fromWhere}`,
    query.filterParams,
  )) as Array<{ total: number; version: string | null }>;
  if (counted.version === null) return counted.total; // the account is being deleted: nothing to remember
  if (counted.total < REMEMBERED_TOTAL_MIN_ROWS) return counted.total;
  await manager.query(
    `INSERT INTO settled_day_totals (account_id, list, day, filter, version, total) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (account_id, list, day, filter) DO UPDATE SET version = EXCLUDED.version, total = EXCLUDED.total
      WHERE settled_day_totals.version < EXCLUDED.version`,
    [query.filterParams[0], key.list, key.day, key.filter, counted.version, counted.total],
  );
  return counted.total;
}
