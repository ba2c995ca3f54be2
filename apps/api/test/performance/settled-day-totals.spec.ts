import { AccountId } from '@twofold/domain';
import { JournalWriter } from '@twofold/journal';
import { REMEMBERED_TOTAL_MIN_ROWS } from '@twofold/persistence';
import { recordQueries } from '../testing/query-counter';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * `totalElements` of a settled day (`isSettledDay`: fifteen minutes after its end) is counted
 * once per filter and remembered in `settled_day_totals` when it is large (REMEMBERED_TOTAL_MIN_ROWS);
 * a deletion of that day's rows makes it count again. Whether a call counted is read from the
 * statements it sent, never from the clock. Large days are seeded by SQL, in one statement each.
 */
describe('remembered totals of settled days (GET /journal, GET /access/requests)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let authorization: string;
  const DAY = '2026-05-18';
  const SETTLED = new Date('2026-05-19T00:15:00.000Z');
  const NOT_YET_SETTLED = new Date('2026-05-19T00:14:59.000Z');
  const BULK = REMEMBERED_TOTAL_MIN_ROWS;

  // a total is counted by a count(*) of its own, or by the page's counting function (day-page.ts)
  const counts = (statements: string[]) => statements.filter((sql) => /COUNT\(|_day_page_counting_total\(/i.test(sql)).length;

  async function total(path: string): Promise<{ total: number; counted: number }> {
    let found = -1;
    const statements = await recordQueries(async () => {
      const res = await t.as(authorization).get(path);
      expect(res.status).toBe(200);
      found = res.body.model.totalElements;
    });
    return { total: found, counted: counts(statements) };
  }
  const journalTotal = (query: string) => total(`/journal?eventDate=${DAY}${query}`);
  const historyTotal = (query = '') => total(`/access/requests?createdAt=${DAY}${query}`);

  async function eventOnDay(time: string, object: string, action: string, account = accountId) {
    await new JournalWriter(t.db, { now: () => new Date(`${DAY}T${time}Z`) }).record(account, {
      object: object as never,
      action: action as never,
      subject: 'someone',
      success: true,
      additionalFields: {},
    });
  }

  async function bulkEvents(object: string, account = accountId) {
    await t.database.dataSource.query(
      `INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields)
       SELECT $1, $2::timestamptz + g * interval '1 ms', $3, 'Create', 'bulk', true, '{}' FROM generate_series(1, $4::int) g`,
      [account, `${DAY}T04:00:00Z`, object, BULK],
    );
  }

  async function bulkRequests(resourceId: string) {
    await t.database.dataSource.query(
      `INSERT INTO access_requests (account_id, resource_id, identity, status, created_at)
       SELECT $1, $2, 'bulk' || g, 'Granted', $3::timestamptz + g * interval '1 ms' FROM generate_series(1, $4::int) g`,
      [accountId, resourceId, `${DAY}T06:00:00Z`, BULK],
    );
  }

  async function requestOnDay(resourceAuth: string, identity: string) {
    t.clock.set(new Date(`${DAY}T12:00:00.000Z`));
    const res = await t.as(resourceAuth).post('/access/requests').send({ identity });
    expect(res.body.success).toBe(true);
  }

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    authorization = account.authorization;
    await bulkEvents('User');
    await eventOnDay('01:00:00.000', 'User', 'Create');
    await eventOnDay('02:00:00.000', 'User', 'Delete');
    await eventOnDay('03:00:00.000', 'Group', 'Create');
  });
  afterEach(() => t.clock.set(SETTLED));
  afterAll(() => t.close());

  it('counts a large total of a settled day once per filter, in any order of its values, and remembers it', async () => {
    t.clock.set(SETTLED);
    expect(await journalTotal('&object=User&object=Group')).toEqual({ total: BULK + 3, counted: 1 });
    expect(await journalTotal('&object=User&object=Group')).toEqual({ total: BULK + 3, counted: 0 });
    expect(await journalTotal('&object=Group&object=User&object=Group')).toEqual({ total: BULK + 3, counted: 0 });
    expect(await journalTotal('&object=User')).toEqual({ total: BULK + 2, counted: 1 });
    expect(await journalTotal('&object=User')).toEqual({ total: BULK + 2, counted: 0 });
  });

  it('counts a small total every time: remembering every small filter would only fill the table', async () => {
    t.clock.set(SETTLED);
    expect(await journalTotal('&object=User&action=Delete')).toEqual({ total: 1, counted: 1 });
    expect(await journalTotal('&object=User&action=Delete')).toEqual({ total: 1, counted: 1 });
    const [stored] = await t.database.dataSource.query(
      `SELECT count(*)::int AS n FROM settled_day_totals WHERE account_id = $1 AND total < $2`,
      [accountId, BULK],
    );
    expect(stored.n).toBe(0);
  });

  it('counts every time while the day may still receive rows (until fifteen minutes after its end)', async () => {
    await bulkEvents('Resource');
    t.clock.set(NOT_YET_SETTLED);
    expect(await journalTotal('&object=Resource')).toEqual({ total: BULK, counted: 1 });
    await eventOnDay('23:59:59.999', 'Resource', 'Delete'); // a late row, stamped by a slower clock
    expect(await journalTotal('&object=Resource')).toEqual({ total: BULK + 1, counted: 1 });
    t.clock.set(SETTLED);
    expect(await journalTotal('&object=Resource')).toEqual({ total: BULK + 1, counted: 1 });
    expect(await journalTotal('&object=Resource')).toEqual({ total: BULK + 1, counted: 0 });
  });

  it('counts again after rows of the day are deleted: a deleted resource takes its requests with it', async () => {
    const vpn = await t.newResource(accountId, 'VPN');
    const owa = await t.newResource(accountId, 'OWA');
    await bulkRequests(vpn.resource.id);
    await bulkRequests(owa.resource.id);
    await requestOnDay(vpn.authorization, 'ann');
    await requestOnDay(vpn.authorization, 'bob');
    await requestOnDay(owa.authorization, 'ann');
    t.clock.set(SETTLED);
    await journalTotal('&object=User'); // remembered by now, whatever ran before
    expect(await journalTotal('&object=User')).toEqual({ total: BULK + 2, counted: 0 });
    expect(await historyTotal()).toEqual({ total: 2 * BULK + 3, counted: 1 });
    expect(await historyTotal()).toEqual({ total: 2 * BULK + 3, counted: 0 });
    expect(await historyTotal('&identity=ann')).toEqual({ total: 2, counted: 1 });

    expect((await t.as(authorization).delete(`/resources/${vpn.resource.id}`)).status).toBe(200);
    expect(await historyTotal()).toEqual({ total: BULK + 1, counted: 1 });
    expect(await historyTotal()).toEqual({ total: BULK + 1, counted: 0 });
    expect(await historyTotal('&identity=ann')).toEqual({ total: 1, counted: 1 });
    // the journal's totals of that account were counted with the version before the deletion: again
    expect(await journalTotal('&object=User')).toEqual({ total: BULK + 2, counted: 1 });
  });

  it('keeps one account’s remembered totals from another’s', async () => {
    t.clock.set(SETTLED);
    expect((await journalTotal('&object=User')).total).toBe(BULK + 2);
    const other = await t.newAccount();
    const res = await t.as(other).get(`/journal?eventDate=${DAY}&object=User`);
    expect(res.body.model.totalElements).toBe(0);
  });

  it('lets an account with remembered totals be deleted (the deletion trigger meets the cascade)', async () => {
    const doomed = await t.newAccount();
    await bulkEvents('User', doomed.account.id);
    t.clock.set(SETTLED);
    const res = await t.as(doomed).get(`/journal?eventDate=${DAY}`);
    expect(res.body.model.totalElements).toBe(BULK);
    const [kept] = await t.database.dataSource.query('SELECT count(*)::int AS n FROM settled_day_totals WHERE account_id = $1', [
      doomed.account.id,
    ]);
    expect(kept.n).toBe(1);
    await t.database.dataSource.query('DELETE FROM accounts WHERE id = $1', [doomed.account.id]);
    const [left] = await t.database.dataSource.query('SELECT count(*)::int AS n FROM settled_day_totals WHERE account_id = $1', [
      doomed.account.id,
    ]);
    expect(left.n).toBe(0);
  });
});
