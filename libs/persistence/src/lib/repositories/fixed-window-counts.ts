import { Db } from '../transaction-context';

/** A table of counts in fixed windows: one row per key, its count and when its window started. */
export interface FixedWindowTable {
  table: 'auth_failures' | 'access_request_rates';
  keyColumn: string;
  keyType: 'text' | 'uuid';
  countColumn: string;
}

export interface FixedWindowCount {
  key: string;
  count: number;
  windowStartedAt: Date;
}

/**
 * Adds `amount` to each key's count in one statement, counted in the database so that every instance
 * sees the same count: a key whose window ended (or that has none) starts a new one at `now`. Returns
 * each key's count in its current window, this amount included. The table and columns are constants
 * of the repositories, never input.
 */
export async function addToFixedWindows(
  db: Db,
  table: FixedWindowTable,
  keys: readonly string[],
  now: Date,
  windowMs: number,
  amount: number,
): Promise<FixedWindowCount[]> {
  const rows: { key: string; count: number; window_started_at: Date }[] = await db
    .manager()
    .query(fixedWindowUpsert(table), [keys, now, windowMs / 1000, amount]);
  return rows.map((row) => ({ key: row.key, count: row.count, windowStartedAt: row.window_started_at }));
}

/**
 * The statement of addToFixedWindows (parameters: $1 keys, $2 now, $3 window in seconds, $4 amount),
 * returning key, count and window_started_at: a repository may read more beside it in one statement.
 */
export function fixedWindowUpsert({ table, keyColumn, keyType, countColumn }: FixedWindowTable): string {
  const ended = `w.window_started_at <= $2::timestamptz - make_interval(secs => $3)`;
  return `INSERT INTO ${table} AS w (${keyColumn}, window_started_at, ${countColumn})
     SELECT key, $2, $4 FROM unnest($1::${keyType}[]) AS key
     ON CONFLICT (${keyColumn}) DO UPDATE SET
       ${countColumn} = CASE WHEN ${ended} THEN $4 ELSE w.${countColumn} + $4 END,
       window_started_at = CASE WHEN ${ended} THEN $2 ELSE w.window_started_at END
     RETURNING ${keyColumn}::text AS key, ${countColumn} AS count, window_started_at`;
}
