import { EntityManager } from 'typeorm';

/**
 * Totals under this many rows are counted every time, not remembered: counting them takes a few
 * milliseconds at most, and remembering every filter of every small day would let a caller fill
 * `settled_day_totals` one cheap request at a time (each distinct `subject`, say, one more row).
 */
export const REMEMBERED_TOTAL_MIN_ROWS = 10_000;

/** Which day page a total belongs to: the journal (`GET /journal`) or the history (`GET /access/requests`). */
export type DayPageList = 'journal' | 'history';

/** Where a settled day's total is remembered in `settled_day_totals`, beside the list and the account. */
export interface RememberedTotalKey {
  /** yyyy-mm-dd, UTC */
  day: string;
  /** the filter in one canonical spelling: the same filter written in another order is the same key */
  filter: string;
}

export interface DayPageQuery {
  /**
   * Read by the list's PL/pgSQL functions (migration 1766700000000-day-page-functions), which keep their
   * plans per server connection: `<list>_day_page_counting_total`, `<list>_day_page_remembered_total`
   */
  list: DayPageList;
  /** the filter's arguments in the functions' order: the account id, the day's start and end, then the list's own (NULL: not filtered) */
  filterArgs: unknown[];
  limit: number;
  offset: number;
}

const placeholders = (count: number) => Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ');

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
  const args = [...query.filterArgs, query.limit, query.offset];
  if (remembered) args.push(remembered.day, remembered.filter);
  const rows = (await manager.query(
    `SELECT * FROM ${query.list}_day_page_${remembered ? 'remembered' : 'counting'}_total(${placeholders(args.length)})`,
    args,
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
 * One statement, one snapshot: the total (the counting function asked for an empty page) and the
 * version it is valid for; then stored (unless a newer one is, or it is too small to be worth it).
 */
async function countAndRemember(manager: EntityManager, query: DayPageQuery, key: RememberedTotalKey): Promise<number> {
  const args = [...query.filterArgs, 0, 0];
  const [counted] = (await manager.query(
    `SELECT c.total, (SELECT v.past_rows_version FROM accounts v WHERE v.id = $1) AS version
       FROM ${query.list}_day_page_counting_total(${placeholders(args.length)}) c`,
    args,
  )) as Array<{ total: number; version: string | null }>;
  if (counted.version === null) return counted.total; // the account is being deleted: nothing to remember
  if (counted.total < REMEMBERED_TOTAL_MIN_ROWS) return counted.total;
  await manager.query(
    `INSERT INTO settled_day_totals (account_id, list, day, filter, version, total) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (account_id, list, day, filter) DO UPDATE SET version = EXCLUDED.version, total = EXCLUDED.total
      WHERE settled_day_totals.version < EXCLUDED.version`,
    [query.filterArgs[0], query.list, key.day, key.filter, counted.version, counted.total],
  );
  return counted.total;
}
