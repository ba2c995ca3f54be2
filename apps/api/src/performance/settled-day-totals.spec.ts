import { JournalWriter } from '@twofold/journal';
import { recordQueries } from '../testing/query-counter';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Issue 11: `totalElements` of a settled day (`isSettledDay`: fifteen minutes after its end) is counted
 * once per filter and remembered in `settled_day_totals`; a deletion of that day's rows makes it count
 * again. Whether it counted is read from the statements sent, never from the clock.
 */
describe('remembered totals of settled days (GET /journal, GET /access/requests)', () => {
  let t: TestApp;
  let accountId: string;
  let authorization: string;
  const DAY = '2026-05-18';
  const SETTLED = new Date('2026-05-19T00:15:00.000Z');
  const NOT_YET_SETTLED = new Date('2026-05-19T00:14:59.000Z');

  const counts = (statements: string[]) => statements.filter((sql) => /COUNT\(/i.test(sql)).length;

  async function journalTotal(query: string): Promise<{ total: number; counted: number }> {
    let total = -1;
    const statements = await recordQueries(async () => {
      const res = await t.http().get(`/journal?eventDate=${DAY}${query}`).set('Authorization', authorization);
      expect(res.status).toBe(200);
      total = res.body.model.totalElements;
    });
    return { total, counted: counts(statements) };
  }

  async function historyTotal(query = ''): Promise<{ total: number; counted: number }> {
    let total = -1;
    const statements = await recordQueries(async () => {
      const res = await t.http().get(`/access/requests?createdAt=${DAY}${query}`).set('Authorization', authorization);
      expect(res.status).toBe(200);
      total = res.body.model.totalElements;
    });
    return { total, counted: counts(statements) };
  }

  async function eventOnDay(time: string, object: string, action: string) {
    await new JournalWriter(t.db, { now: () => new Date(`${DAY}T${time}Z`) }).record(accountId, {
      object: object as never,
      action: action as never,
      subject: 'someone',
      success: true,
      additionalFields: {},
    });
  }

  async function requestOnDay(resourceAuth: string, identity: string) {
    t.clock.set(new Date(`${DAY}T12:00:00.000Z`));
    const res = await t.http().post('/access/requests').set('Authorization', resourceAuth).send({ identity });
    expect(res.body.success).toBe(true);
  }

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    authorization = account.authorization;
    await eventOnDay('01:00:00.000', 'User', 'Create');
    await eventOnDay('02:00:00.000', 'User', 'Delete');
    await eventOnDay('03:00:00.000', 'Group', 'Create');
  });
  afterEach(() => t.clock.set(SETTLED));
  afterAll(() => t.close());

  it('counts a settled day once per filter, in any order of its values, and remembers the total', async () => {
    t.clock.set(SETTLED);
    expect(await journalTotal('&object=User&object=Group')).toEqual({ total: 3, counted: 1 });
    expect(await journalTotal('&object=User&object=Group')).toEqual({ total: 3, counted: 0 });
    expect(await journalTotal('&object=Group&object=User&object=Group')).toEqual({ total: 3, counted: 0 });
    expect(await journalTotal('&object=User')).toEqual({ total: 2, counted: 1 });
    expect(await journalTotal('&object=User&action=Delete')).toEqual({ total: 1, counted: 1 });
    expect(await journalTotal('&object=User&action=Delete')).toEqual({ total: 1, counted: 0 });
  });

  it('counts every time while the day may still receive rows (until fifteen minutes after its end)', async () => {
    t.clock.set(NOT_YET_SETTLED);
    expect(await journalTotal('&object=Resource')).toEqual({ total: 0, counted: 1 });
    await eventOnDay('23:59:59.999', 'Resource', 'Create'); // a late row, stamped by a slower clock
    expect(await journalTotal('&object=Resource')).toEqual({ total: 1, counted: 1 });
    t.clock.set(SETTLED);
    expect(await journalTotal('&object=Resource')).toEqual({ total: 1, counted: 1 });
    expect(await journalTotal('&object=Resource')).toEqual({ total: 1, counted: 0 });
  });

  it('counts again after rows of the day are deleted: a deleted resource takes its requests with it', async () => {
    const vpn = await t.newResource(accountId, 'VPN');
    const owa = await t.newResource(accountId, 'OWA');
    await requestOnDay(vpn.authorization, 'ann');
    await requestOnDay(vpn.authorization, 'bob');
    await requestOnDay(owa.authorization, 'ann');
    t.clock.set(SETTLED);
    expect(await historyTotal()).toEqual({ total: 3, counted: 1 });
    expect(await historyTotal('&identity=ann')).toEqual({ total: 2, counted: 1 });
    expect(await historyTotal()).toEqual({ total: 3, counted: 0 });

    expect((await t.http().delete(`/resources/${vpn.resource.id}`).set('Authorization', authorization)).status).toBe(200);
    expect(await historyTotal()).toEqual({ total: 1, counted: 1 });
    expect(await historyTotal('&identity=ann')).toEqual({ total: 1, counted: 1 });
    expect(await historyTotal()).toEqual({ total: 1, counted: 0 });
    // the journal's totals of that account were counted before the deletion's version: counted again
    expect(await journalTotal('&object=User')).toEqual({ total: 2, counted: 1 });
  });

  it('keeps one account’s remembered totals from another’s', async () => {
    t.clock.set(SETTLED);
    expect((await journalTotal('&object=Group')).total).toBe(1);
    const other = await t.newAccount();
    const res = await t.http().get(`/journal?eventDate=${DAY}&object=Group`).set('Authorization', other.authorization);
    expect(res.body.model.totalElements).toBe(0);
  });

  it('lets an account with remembered totals be deleted (the deletion trigger meets the cascade)', async () => {
    const doomed = await t.newAccount();
    await new JournalWriter(t.db, { now: () => new Date(`${DAY}T05:00:00.000Z`) }).record(doomed.account.id, {
      object: 'User' as never,
      action: 'Create' as never,
      subject: 'x',
      success: true,
      additionalFields: {},
    });
    t.clock.set(SETTLED);
    const res = await t.http().get(`/journal?eventDate=${DAY}`).set('Authorization', doomed.authorization);
    expect(res.body.model.totalElements).toBe(1);
    await t.database.dataSource.query('DELETE FROM accounts WHERE id = $1', [doomed.account.id]);
    const [left] = await t.database.dataSource.query('SELECT count(*)::int AS n FROM settled_day_totals WHERE account_id = $1', [doomed.account.id]);
    expect(left.n).toBe(0);
  });
});
