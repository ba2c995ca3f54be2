import { randomBytes } from 'node:crypto';
import { AccountId } from '@twofold/domain';
import { Client } from 'pg';
import { createTestDatabase, newAccount, newResource, TestDatabase } from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { AccessRequestsRepository } from './access-requests.repository';
import { JournalRepository } from './journal.repository';

const DAY = { day: '2026-05-18', from: new Date('2026-05-18T00:00:00Z'), to: new Date('2026-05-19T00:00:00Z') };
const ROWS = 20_000;

/**
 * The day pages and the page of users run inside PL/pgSQL functions whose plans are generic (planned
 * once per connection, whatever the filter's values). These tests read those plans, as PostgreSQL's
 * auto_explain logs the statements nested in a function, and check each reads its filter's index in
 * the page's order: a generic plan that scanned the table or sorted the day would cost every call of a
 * large account.
 */
describe('plans of the page functions (persistence)', () => {
  let database: TestDatabase;
  let client: Client;
  let accountId: AccountId;
  let plans: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = new Db(database.dataSource);
    const cipher = new SecretCipher(randomBytes(32));
    accountId = (await newAccount(db, cipher)).account.id;
    const otherId = (await newAccount(db, cipher)).account.id;
    const resourceId = (await newResource(db, cipher, accountId, 'VPN')).resource.id;
    const otherResourceId = (await newResource(db, cipher, otherId, 'VPN')).resource.id;
    // two accounts and three days, so that one account's day is a small part of each table
    for (const [account, resource] of [
      [accountId, resourceId],
      [otherId, otherResourceId],
    ]) {
      await database.dataSource.query(
        `INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields)
         SELECT $1, $2::timestamptz + g * interval '12 s', CASE WHEN g % 4 = 0 THEN 'User' ELSE 'Group' END, 'Create', 'admin', true, '{}'
           FROM generate_series(1, $3::int) g`,
        [account, '2026-05-17T00:00:00Z', ROWS],
      );
      await database.dataSource.query(
        `INSERT INTO access_requests (account_id, resource_id, identity, status, created_at)
         SELECT $1, $2, 'user' || (g % 500), 'Granted', $3::timestamptz + g * interval '12 s' FROM generate_series(1, $4::int) g`,
        [account, resource, '2026-05-17T00:00:00Z', ROWS],
      );
    }
    await database.dataSource.query(
      `INSERT INTO users (account_id, identity, identity_key, created_at)
       SELECT $1, 'user' || g, 'user' || g, $2::timestamptz + g * interval '1 s' FROM generate_series(1, $3::int) g`,
      [accountId, '2026-05-17T00:00:00Z', ROWS],
    );
    await database.dataSource.query('ANALYZE users');
    await database.dataSource.query('ANALYZE journal_events');
    await database.dataSource.query('ANALYZE access_requests');
    client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query(`LOAD 'auto_explain'`);
    await client.query(`SET auto_explain.log_min_duration = 0`);
    await client.query(`SET auto_explain.log_nested_statements = on`);
    await client.query(`SET client_min_messages = log`);
    await client.query(`SET TimeZone = 'UTC'`); // the plans' timestamps as the assertions spell them
    client.on('notice', (notice) => plans.push(String(notice.message)));
  });
  afterAll(async () => {
    await client?.end();
    await database.drop();
  });

  /**
   * The plans of the statements `sql` ran inside its function on its second call (every later call uses
   * the same): the page's (generic, kept) and, for a counting function, the count's (made for the call).
   */
  async function nestedPlans(sql: string, args: unknown[]): Promise<{ page: string; count: string | undefined }> {
    await client.query(sql, args);
    plans = [];
    const rows = (await client.query(sql, args)).rows;
    expect(rows.length).toBeGreaterThan(0);
    const nested = plans.filter((plan) => !plan.includes(sql.slice(0, 30)));
    const pages = nested.filter((plan) => plan.includes('LIMIT p_limit OFFSET p_offset'));
    const counts = nested.filter((plan) => plan.includes('SELECT count(*)'));
    expect(pages).toHaveLength(1);
    expect(counts.length).toBeLessThanOrEqual(1);
    return { page: pages[0], count: counts[0] };
  }

  const page = [100, 0];
  const settled = [DAY.day, 'some filter'];

  it('the journal page reads the account-and-date index in the page order, whatever the filter; a count is planned for its day', async () => {
    for (const filters of [
      [null, null, null, null],
      [['Create'], ['User', 'Group'], [true], 'admin'],
    ]) {
      const counting = await nestedPlans('SELECT * FROM journal_day_page_counting_total($1, $2, $3, $4, $5, $6, $7, $8, $9)', [
        accountId,
        DAY.from,
        DAY.to,
        ...filters,
        ...page,
      ]);
      const remembered = await nestedPlans(
        'SELECT * FROM journal_day_page_remembered_total($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
        [accountId, DAY.from, DAY.to, ...filters, ...page, ...settled],
      );
      for (const plan of [counting.page, remembered.page]) {
        expect(plan).toContain('Index Scan using journal_events_account_date');
        expect(plan).toMatch(/Index Cond: \(\(account_id = \$1\) AND \(event_date >= \$2\) AND \(event_date < \$3\)\)/);
        expect(plan).not.toMatch(/Seq Scan|Sort Key/);
      }
      // the count's plan is made with the call's values (a generic plan's guess of a day's size reads a large one row by row)
      expect(counting.count).toContain(`'${DAY.day} 00:00:00+00'::timestamp with time zone`);
      expect(remembered.count).toBeUndefined();
    }
  });

  it('the history page reads the day index, or the login index when a login is asked for', async () => {
    const calls = [
      ['SELECT * FROM history_day_page_counting_total($1, $2, $3, $4, $5, $6)', []],
      ['SELECT * FROM history_day_page_remembered_total($1, $2, $3, $4, $5, $6, $7, $8)', settled],
    ] as const;
    for (const [sql, extra] of calls) {
      const day = await nestedPlans(sql, [accountId, DAY.from, DAY.to, null, ...page, ...extra]);
      expect(day.page).toContain('Index Scan using access_requests_account_created');
      expect(day.page).not.toMatch(/Seq Scan|Sort Key/);
      const byLogin = await nestedPlans(sql, [accountId, DAY.from, DAY.to, 'USER7', ...page, ...extra]);
      expect(byLogin.page).toContain('Index Scan using access_requests_account_identity');
      expect(byLogin.page).not.toContain('Seq Scan');
      for (const { count } of [day, byLogin]) {
        if (extra.length) expect(count).toBeUndefined();
        else expect(count).toContain(`'${DAY.day} 00:00:00+00'::timestamp with time zone`);
      }
    }
  });

  it('the page of users reads the account-and-creation index in the page order', async () => {
    for (const offset of [0, 15_000]) {
      const plan = (await nestedPlans('SELECT * FROM users_page_with_details($1, $2, $3)', [accountId, 100, offset])).page;
      expect(plan).toContain('users_account_created');
      expect(plan).not.toMatch(/Seq Scan on users|Sort Key: u\.created_at/);
    }
  });

  it('every function on a kept generic plan runs without JIT (its LIMIT is costed at a tenth of the table)', async () => {
    const { rows } = await client.query<{ name: string; config: string[] }>(
      `SELECT p.oid::regprocedure::text AS name, p.proconfig AS config FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace AND 'plan_cache_mode=force_generic_plan' = ANY (p.proconfig) ORDER BY 1`,
    );
    expect(rows.map((row) => row.name.replace(/\(.*/, ''))).toEqual([
      'history_day_page_counting_total',
      'history_day_page_remembered_total',
      'journal_day_page_counting_total',
      'journal_day_page_remembered_total',
      'users_page_with_details',
    ]);
    for (const row of rows) expect(row.config).toContain('jit=off');
    // where this server can compile (built with LLVM), a page is not compiled even when every statement would be
    const { rows: available } = await client.query<{ jit: boolean }>('SELECT pg_jit_available() AS jit');
    if (!available[0].jit) return;
    await client.query('SET jit = on');
    await client.query('SET jit_above_cost = 0');
    try {
      const plain = await client.query(`EXPLAIN SELECT count(*) FROM users WHERE account_id = $1`, [accountId]);
      expect(plain.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('JIT:');
      const { page } = await nestedPlans('SELECT * FROM users_page_with_details($1, $2, $3)', [accountId, 100, 0]);
      expect(page).not.toContain('JIT:');
    } finally {
      await client.query('RESET jit');
      await client.query('RESET jit_above_cost');
    }
  });

  it('answers as the repositories expect: the filtered page and its total', async () => {
    const db = new Db(database.dataSource);
    const [events, eventsTotal] = await new JournalRepository(db).search(
      accountId,
      { day: DAY, settled: false, objects: ['User'], successes: [true] },
      { limit: 3, offset: 1 },
    );
    expect(eventsTotal).toBe(1800); // every 4th of the 7 200 events of a day (one each 12 s)
    expect(events.map((event) => event.object)).toEqual(['User', 'User', 'User']);
    expect(events[0].eventDate.getTime()).toBeLessThan(events[1].eventDate.getTime());
    const [requests, requestsTotal] = await new AccessRequestsRepository(db).list(
      accountId,
      { day: DAY, settled: false, identity: 'USER7' },
      { limit: 100, offset: 0 },
    );
    expect(requestsTotal).toBe(requests.length);
    expect(requests.length).toBeGreaterThan(10);
    expect(new Set(requests.map((request) => request.identity))).toEqual(new Set(['user7']));
    expect(requests.every((request) => request.resourceName === 'VPN')).toBe(true);
  });
});
