import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal's and the history's day pages (`GET /journal`, `GET /access/requests`) as PL/pgSQL
 * functions, two per list: `…_counting_total` (a day that may still receive rows: the total is counted
 * with the page) and `…_remembered_total` (a settled day: the total is read from `settled_day_totals`,
 * valid only with the account's current `past_rows_version`; null when it is not there).
 *
 * Why functions: the API sends its statements unnamed (as TypeORM and pg do), so PostgreSQL planned the
 * page statement again on every call, 0.77–0.84 ms against 0.24–0.25 ms of execution (EXPLAIN ANALYZE,
 * 1 000 000 rows of a day), while a function keeps its statements' plans for the life of the server
 * connection, also behind PgBouncer in transaction mode (which named prepared statements are not).
 *
 * `plan_cache_mode = force_generic_plan`: left to choose, PostgreSQL kept planning every call, because
 * a generic plan's LIMIT and OFFSET are parameters it cannot cost (it assumes a tenth of the rows and
 * prices that plan far above the custom one), although the plan is the same either way: the one index
 * of the filter read in the page's order. Each filter shape with an index of its own (the history by
 * login) is a statement of its own, so its generic plan uses that index.
 *
 * A counted total is the exception: its statement is planned on every call (`EXECUTE … USING`, a plan
 * for the actual day and filter). A generic plan must guess how much of the table a day is, and its
 * guess (half a percent) reads a large day through the index row by row: 250 000 rows of one day
 * counted in 244–298 ms, against 55 ms with the plan made for that day (a parallel scan there). For a
 * small day the planning costs a tenth of a millisecond.
 *
 * A filter left out is passed as NULL (an empty list too); an `IN` list is an array.
 */
const JOURNAL_WHERE = `e.account_id = p_account_id AND e.event_date >= p_from AND e.event_date < p_to
           AND (p_actions IS NULL OR e.action = ANY (p_actions))
           AND (p_objects IS NULL OR e.object = ANY (p_objects))
           AND (p_successes IS NULL OR e.success = ANY (p_successes))
           AND (p_subject IS NULL OR e.subject = p_subject)`;

const JOURNAL_PAGE = `SELECT e.id, e.event_date, e.object, e.action, e.subject, e.success, e.additional_fields
          FROM journal_events e WHERE ${JOURNAL_WHERE}
         ORDER BY e.event_date, e.seq LIMIT p_limit OFFSET p_offset`;

const JOURNAL_ROW = `total integer, id uuid, "eventDate" timestamptz, object text, action text, subject text, success boolean,
                     "additionalFields" jsonb`;
const JOURNAL_FILTER = `p_account_id uuid, p_from timestamptz, p_to timestamptz, p_actions text[], p_objects text[], p_successes boolean[],
                        p_subject text, p_limit integer, p_offset integer`;

const HISTORY_DAY = `r.account_id = p_account_id AND r.created_at >= p_from AND r.created_at < p_to`;
const HISTORY_BY_LOGIN = `${HISTORY_DAY} AND lower(r.identity) = lower(p_identity)`;

const historyPage = (where: string) => `SELECT r.id, r.identity, r.status, r.created_at, r.granted_at, r.authenticator, r.country_code,
               r.region, r.city, r.remote_host, r.ip, r.two_fa_device_ip, r.bypassed, r.channel,
               (SELECT s.name FROM resources s WHERE s.id = r.resource_id AND s.account_id = r.account_id)
          FROM access_requests r WHERE ${where}
         ORDER BY r.created_at, r.id LIMIT p_limit OFFSET p_offset`;

const HISTORY_ROW = `total integer, id uuid, identity text, status text, "createdAt" timestamptz, "grantedAt" timestamptz, authenticator text,
                     "countryCode" text, region text, city text, "remoteHost" text, ip text, "twoFADeviceIp" text, bypassed boolean,
                     channel text, "resourceName" text`;
const HISTORY_FILTER = `p_account_id uuid, p_from timestamptz, p_to timestamptz, p_identity text, p_limit integer, p_offset integer`;

const remembered = (list: 'journal' | 'history') => `SELECT (SELECT m.total FROM settled_day_totals m
          JOIN accounts a ON a.id = m.account_id AND a.past_rows_version = m.version
         WHERE m.account_id = p_account_id AND m.list = '${list}' AND m.day = p_day AND m.filter = p_filter) AS total`;

const dayPage = (total: string, page: string) => `SELECT t.total, p.* FROM (${total}) t LEFT JOIN LATERAL (${page}) p ON true`;

const fn = (name: string, args: string, row: string, body: string) => `
  CREATE FUNCTION ${name}(${args})
  RETURNS TABLE (${row})
  LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
  #variable_conflict use_column
  DECLARE
    counted integer;
  BEGIN
    ${body}
  END $$`;

/** `where` with the function's arguments written `$1`, `$2`… in the order of `args`, for `EXECUTE … USING`. */
const numbered = (where: string, args: string[]) =>
  args.reduce((sql, arg, i) => sql.replace(new RegExp(`\\b${arg}\\b`, 'g'), `$${i + 1}`), where);

/** The filtered day counted by a statement planned for this call, then the page (its plan kept) beside that total. */
const countedDayPage = (table: string, where: string, args: string[], page: string) =>
  `EXECUTE 'SELECT count(*)::int FROM ${table} WHERE ${numbered(where, args).replace(/'/g, "''")}' INTO counted USING ${args.join(', ')};
      RETURN QUERY ${dayPage('SELECT counted AS total', page)};`;

const JOURNAL_ARGS = ['p_account_id', 'p_from', 'p_to', 'p_actions', 'p_objects', 'p_successes', 'p_subject'];
const HISTORY_ARGS = ['p_account_id', 'p_from', 'p_to', 'p_identity'];

const byLoginOrNot = (withLogin: string, withoutLogin: string) => `IF p_identity IS NULL THEN
      ${withoutLogin}
    ELSE
      ${withLogin}
    END IF;`;

export class DayPageFunctions1766700000000 implements MigrationInterface {
  name = 'DayPageFunctions1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      fn(
        'journal_day_page_counting_total',
        JOURNAL_FILTER,
        JOURNAL_ROW,
        countedDayPage('journal_events e', JOURNAL_WHERE, JOURNAL_ARGS, JOURNAL_PAGE),
      ),
    );
    await q.query(
      fn(
        'journal_day_page_remembered_total',
        `${JOURNAL_FILTER}, p_day date, p_filter text`,
        JOURNAL_ROW,
        `RETURN QUERY ${dayPage(remembered('journal'), JOURNAL_PAGE)};`,
      ),
    );
    await q.query(
      fn(
        'history_day_page_counting_total',
        HISTORY_FILTER,
        HISTORY_ROW,
        byLoginOrNot(
          countedDayPage('access_requests r', HISTORY_BY_LOGIN, HISTORY_ARGS, historyPage(HISTORY_BY_LOGIN)),
          countedDayPage('access_requests r', HISTORY_DAY, HISTORY_ARGS, historyPage(HISTORY_DAY)),
        ),
      ),
    );
    await q.query(
      fn(
        'history_day_page_remembered_total',
        `${HISTORY_FILTER}, p_day date, p_filter text`,
        HISTORY_ROW,
        byLoginOrNot(
          `RETURN QUERY ${dayPage(remembered('history'), historyPage(HISTORY_BY_LOGIN))};`,
          `RETURN QUERY ${dayPage(remembered('history'), historyPage(HISTORY_DAY))};`,
        ),
      ),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const journal = 'uuid, timestamptz, timestamptz, text[], text[], boolean[], text, integer, integer';
    const history = 'uuid, timestamptz, timestamptz, text, integer, integer';
    await q.query(`DROP FUNCTION journal_day_page_counting_total(${journal})`);
    await q.query(`DROP FUNCTION journal_day_page_remembered_total(${journal}, date, text)`);
    await q.query(`DROP FUNCTION history_day_page_counting_total(${history})`);
    await q.query(`DROP FUNCTION history_day_page_remembered_total(${history}, date, text)`);
  }
}
