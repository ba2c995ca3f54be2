import { startTestApp, TestApp } from '../testing/test-app';

/** Bodies nested deeper than any client needs: refused as bad input (400), never our failure (500). */
describe('security: deeply nested JSON bodies', () => {
  let t: TestApp;
  let auth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    auth = account.authorization;
    resource = await t.newResource(account.account.id, 'App');
  });
  afterAll(() => t.close());

  it('refuses claims nested 50 000 levels deep (200 success:false on POST /access/requests)', async () => {
    const res = await t
      .as(resource)
      .post('/access/requests')
      .set('Content-Type', 'application/json')
      .send(`{"identity":"deep","claims":{"a":${deep(50_000)}}}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: null, success: false, message: expect.stringContaining('nested') });
  });

  it('answers 400 for an array of 300 000 items (not a 500 from walking it)', async () => {
    const user = await t.as(auth).post('/users').send({ Identity: 'wide' });
    const res = await t
      .as(auth)
      .post(`/v2/users/${user.body.model.id}/groups`)
      .set('Content-Type', 'application/json')
      .send(`{"GroupNames":[${Array(300_000).fill('0').join(',')}]}`);
    expect(res.status).toBe(400);
  });

  it('answers 400 for a user body nested 50 000 levels deep', async () => {
    const res = await t
      .as(auth)
      .post('/users')
      .set('Content-Type', 'application/json')
      .send(`{"Identity":"deep","Name":${deep(50_000)}}`);
    expect(res.status).toBe(400);
  });
});
