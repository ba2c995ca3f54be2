import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Attacker: a holder of the account API key (or a buggy client) sends one body of under 1 MiB holding
 * tens of thousands of names. Each call must be refused at once, not hold the one event loop of the
 * API for seconds (a quadratic de-duplication did: ~6 s for 20 000 names, minutes near 1 MiB).
 */
describe('security: large name arrays in user bodies', () => {
  let t: TestApp;
  let auth: string;
  let userId: string;
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  beforeAll(async () => {
    t = await startTestApp();
    auth = (await t.newAccount()).authorization;
    userId = (await t.http().post('/users').set('Authorization', auth).send({ Identity: 'target' })).body.model.id;
  });
  afterAll(() => t.close());

  async function timed(send: () => PromiseLike<{ status: number; body: { message: string } }>) {
    const started = Date.now();
    const res = await send();
    return { res, ms: Date.now() - started };
  }

  it('refuses 20 000 group names at once (V2 GroupNames, V1 Groups.Add)', async () => {
    const v2 = await timed(() => t.http().post(`/v2/users/${userId}/groups`).set('Authorization', auth).send({ GroupNames: names(20_000, 'group') }));
    expect(v2.res.status).toBe(400);
    expect(v2.ms).toBeLessThan(1500);
    const v1 = await timed(() => t.http().put(`/users/${userId}`).set('Authorization', auth).send({ Groups: { Add: names(20_000, 'group') } }));
    expect(v1.res.status).toBe(400);
    expect(v1.ms).toBeLessThan(1500);
  }, 120_000);

  it('refuses a group name longer than any group can be, without echoing it', async () => {
    const res = await t.http().post(`/v2/users/${userId}/groups`).set('Authorization', auth).send({ GroupNames: ['x'.repeat(100_000)] });
    expect(res.status).toBe(400);
    expect(res.body.message.length).toBeLessThan(300);
  });

  it('refuses 20 000 custom fields at once', async () => {
    const fields = names(20_000, 'field').map((name) => ({ name, value: 'v' }));
    const put = await timed(() => t.http().put(`/v2/users/${userId}/customfields`).set('Authorization', auth).send({ fields }));
    expect(put.res.status).toBe(400);
    expect(put.ms).toBeLessThan(1500);
  }, 120_000);
});
