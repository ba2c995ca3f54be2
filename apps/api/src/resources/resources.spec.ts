import { startTestApp, TestApp, TEST_NOW } from '../testing/test-app';

describe('resources (CONTRACT §3)', () => {
  let t: TestApp;
  let authorization: string;
  let accountId: string;
  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    authorization = account.authorization;
    accountId = account.account.id;
  });
  afterAll(() => t.close());

  it('creates a resource whose secret is shown once, then only through the journaled display', async () => {
    const created = await t.http().post('/resources').set('Authorization', authorization).send({ Name: 'VPN' });
    expect(created.status).toBe(201);
    const { id, apiKey, apiSecret } = created.body.model;
    expect(created.body.model).toEqual({ id: expect.any(String), name: 'VPN', apiKey: expect.any(String), apiSecret: expect.any(String) });

    const list = await t.http().get('/resources').set('Authorization', authorization);
    expect(list.body.model.data).toEqual([{ id, name: 'VPN', apiKey }]);
    expect(JSON.stringify(list.body)).not.toContain(apiSecret);

    const shown = await t.http().get(`/resources/${id}/secret`).set('Authorization', authorization);
    expect(shown.body.model.apiSecret).toBe(apiSecret);

    const stored = await t.database.dataSource.query('SELECT api_secret_enc FROM resources WHERE id = $1', [id]);
    expect(Buffer.from(stored[0].api_secret_enc).toString('latin1')).not.toContain(apiSecret);

    t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
    const journal = await t.http().get('/journal?eventDate=2026-05-20&object=Resource').set('Authorization', authorization);
    t.clock.set(TEST_NOW);
    expect(journal.body.model.data.map((e: { action: string }) => e.action)).toEqual(['Create', 'DisplayResourceSecret']);
    expect(JSON.stringify(journal.body)).not.toContain(apiSecret);
  });

  it('renames and deletes', async () => {
    const { id } = (await t.http().post('/resources').set('Authorization', authorization).send({ name: 'Wiki' })).body.model;
    const renamed = await t.http().put(`/resources/${id}`).set('Authorization', authorization).send({ name: 'Intranet' });
    expect(renamed.body.model.name).toBe('Intranet');
    expect((await t.http().delete(`/resources/${id}`).set('Authorization', authorization)).status).toBe(200);
    expect((await t.http().get(`/resources/${id}/secret`).set('Authorization', authorization)).status).toBe(404);
  });

  it('answers 400 for an empty name', async () => {
    expect((await t.http().post('/resources').set('Authorization', authorization).send({ name: '' })).status).toBe(400);
    expect((await t.http().post('/resources').set('Authorization', authorization).send({ name: '   ' })).status).toBe(400);
  });

  it("answers 404 for another account's resource", async () => {
    const other = await t.newAccount();
    const theirs = await t.newResource(other.account.id);
    expect((await t.http().get(`/resources/${theirs.resource.id}/secret`).set('Authorization', authorization)).status).toBe(404);
    expect((await t.http().delete(`/resources/${theirs.resource.id}`).set('Authorization', authorization)).status).toBe(404);
    expect(accountId).not.toBe(other.account.id);
  });
});
