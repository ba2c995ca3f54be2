import { AccountId } from '@twofold/domain';
import { recordQueries } from '../../../test/testing/query-counter';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { STALE_REQUESTS_PER_STATEMENT, StaleAccessRequestsSweeper } from './stale-access-requests.sweeper';

describe('StaleAccessRequestsSweeper: awaiting requests past their expiry written Expired, pending secrets erased', () => {
  let t: TestApp;
  let sweeper: StaleAccessRequestsSweeper;

  beforeAll(async () => {
    t = await startTestApp();
    sweeper = t.app.get(StaleAccessRequestsSweeper);
  });
  afterAll(() => t.close());

  const minutesAgo = (minutes: number) => new Date(t.clock.now().getTime() - minutes * 60_000);

  async function request(accountId: AccountId, status: string, createdAt: Date, identity = 'someone'): Promise<string> {
    const [resource] = await t.database.dataSource.query('SELECT id FROM resources WHERE account_id = $1 LIMIT 1', [accountId]);
    const [row] = await t.database.dataSource.query(
      `INSERT INTO access_requests (account_id, resource_id, identity, status, created_at, pending_secret_enc)
       VALUES ($1, $2, $3, $4, $5, '\\x0102'::bytea) RETURNING id`,
      [accountId, resource.id, identity, status, createdAt],
    );
    return row.id;
  }
  const rowOf = async (id: string) =>
    (await t.database.dataSource.query('SELECT status, pending_secret_enc IS NULL AS erased FROM access_requests WHERE id = $1', [id]))[0];

  it('expires every account’s requests older than 15 minutes and nothing younger or decided', async () => {
    const one = (await t.newAccount()).account.id;
    const other = (await t.newAccount()).account.id;
    await t.newResource(one);
    await t.newResource(other);
    const stale = await request(one, 'AwaitingAuthentication', minutesAgo(16));
    const staleElsewhere = await request(other, 'AwaitingAuthentication', minutesAgo(15));
    const young = await request(one, 'AwaitingAuthentication', minutesAgo(14));
    const granted = await request(one, 'Granted', minutesAgo(30));

    expect(await sweeper.sweep()).toBe(2);

    expect(await rowOf(stale)).toEqual({ status: 'Expired', erased: true });
    expect(await rowOf(staleElsewhere)).toEqual({ status: 'Expired', erased: true });
    expect(await rowOf(young)).toEqual({ status: 'AwaitingAuthentication', erased: false });
    expect(await rowOf(granted)).toEqual({ status: 'Granted', erased: false });

    t.clock.advance(60_000);
    try {
      expect(await sweeper.sweep()).toBe(1);
      expect(await rowOf(young)).toEqual({ status: 'Expired', erased: true });
    } finally {
      t.clock.advance(-60_000);
    }
  });

  it('skips a request a sign-in holds locked, and takes it at the next sweep', async () => {
    const account = (await t.newAccount()).account.id;
    await t.newResource(account);
    const held = await request(account, 'AwaitingAuthentication', minutesAgo(20));
    const runner = t.database.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query('SELECT id FROM access_requests WHERE id = $1 FOR UPDATE', [held]);
      expect(await sweeper.sweep()).toBe(0);
      expect((await rowOf(held)).status).toBe('AwaitingAuthentication');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await sweeper.sweep()).toBe(1);
    expect(await rowOf(held)).toEqual({ status: 'Expired', erased: true });
  });

  it('works through a backlog in statements of a bounded size', async () => {
    const account = (await t.newAccount()).account.id;
    await t.newResource(account);
    const [{ id: resourceId }] = await t.database.dataSource.query('SELECT id FROM resources WHERE account_id = $1 LIMIT 1', [account]);
    const backlog = STALE_REQUESTS_PER_STATEMENT + 5;
    await t.database.dataSource.query(
      `INSERT INTO access_requests (account_id, resource_id, identity, status, created_at, pending_secret_enc)
       SELECT $1, $2, 'bulk' || g, 'AwaitingAuthentication', $3, '\\x01'::bytea FROM generate_series(1, $4::int) g`,
      [account, resourceId, minutesAgo(30), backlog],
    );
    let expired = 0;
    const statements = await recordQueries(async () => {
      expired = await sweeper.sweep();
    });
    expect(expired).toBe(backlog);
    expect(statements).toHaveLength(2);
    const [left] = await t.database.dataSource.query(
      `SELECT count(*)::int AS n FROM access_requests WHERE account_id = $1 AND (status <> 'Expired' OR pending_secret_enc IS NOT NULL)`,
      [account],
    );
    expect(left.n).toBe(0);
  });

  it('is what erases a stale request’s secret: reading the history writes nothing', async () => {
    const created = await t.newAccount();
    await t.newResource(created.account.id);
    // the day before TEST_NOW's is settled: its page reads without writing
    const stale = await request(created.account.id, 'AwaitingAuthentication', new Date('2026-05-19T09:00:00.000Z'), 'ann');
    const statements = await recordQueries(async () => {
      const res = await t.as(created.authorization).get('/access/requests?createdAt=2026-05-19');
      expect(res.body.model.data).toEqual([expect.objectContaining({ id: stale, status: 'Expired' })]);
    });
    expect(statements.filter((sql) => /^\s*(UPDATE|INSERT|DELETE)/i.test(sql) && /access_requests/.test(sql))).toEqual([]);
    expect(await rowOf(stale)).toEqual({ status: 'AwaitingAuthentication', erased: false });
    expect(await sweeper.sweep()).toBe(1);
    expect(await rowOf(stale)).toEqual({ status: 'Expired', erased: true });
  });
});
