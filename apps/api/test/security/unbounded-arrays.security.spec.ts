import { countQueries } from '../testing/query-counter';
import { heardEverythingAnnounced } from '../testing/credentials-announcements';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: a holder of the account API key (or a buggy client) sends one body of under 1 MiB holding
 * tens of thousands of names. Each call must be refused at once, not hold the one event loop of the
 * API for seconds (a quadratic de-duplication did: ~6 s for 20 000 names, minutes near 1 MiB).
 * The bound is proven by counting work: the database sees the same statements for 20 000 names as for
 * 1 001 (none per name), and libs/domain counts the element reads of the parsers (groups.spec.ts,
 * custom-fields.spec.ts).
 */
describe('security: large name arrays in user bodies', () => {
  let t: TestApp;
  let auth: string;
  let userId: string;
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  beforeAll(async () => {
    t = await startTestApp();
    auth = (await t.newAccount()).authorization;
    // the account's own announcement comes back first, or it drops the pair in a counted call
    await heardEverythingAnnounced(t.app, t.database.dataSource);
    userId = (await t.as(auth).post('/users').send({ Identity: 'target' })).body.model.id;
  });
  afterAll(() => t.close());

  /** The status of the call and the SQL statements it caused. */
  async function counted(send: () => PromiseLike<{ status: number }>) {
    let status = 0;
    const queries = await countQueries(async () => {
      status = (await send()).status;
    });
    return { status, queries };
  }

  it('refuses 20 000 group names with the work of 1 001 (V2 GroupNames, V1 Groups.Add)', async () => {
    const v2 = (n: number) =>
      counted(() =>
        t
          .as(auth)
          .post(`/v2/users/${userId}/groups`)
          .send({ GroupNames: names(n, 'group') }),
      );
    const small = await v2(1_001);
    const large = await v2(20_000);
    expect([small.status, large.status]).toEqual([400, 400]);
    expect(small.queries).toBeGreaterThan(0); // the counter sees the credential lookup and the journal
    expect(large.queries).toBe(small.queries);
    const v1 = (n: number) =>
      counted(() =>
        t
          .as(auth)
          .put(`/users/${userId}`)
          .send({ Groups: { Add: names(n, 'group') } }),
      );
    const smallV1 = await v1(1_001);
    const largeV1 = await v1(20_000);
    expect([smallV1.status, largeV1.status]).toEqual([400, 400]);
    expect(largeV1.queries).toBe(smallV1.queries);
  });

  it('refuses a group name longer than any group can be, without echoing it', async () => {
    const res = await t
      .as(auth)
      .post(`/v2/users/${userId}/groups`)
      .send({ GroupNames: ['x'.repeat(100_000)] });
    expect(res.status).toBe(400);
    expect(res.body.message.length).toBeLessThan(300);
  });

  it('refuses 20 000 custom fields with the work of 101', async () => {
    const put = (n: number) =>
      counted(() =>
        t
          .as(auth)
          .put(`/v2/users/${userId}/customfields`)
          .send({ fields: names(n, 'field').map((name) => ({ name, value: 'v' })) }),
      );
    const small = await put(101);
    const large = await put(20_000);
    expect([small.status, large.status]).toEqual([400, 400]);
    expect(large.queries).toBe(small.queries);
  });
});
