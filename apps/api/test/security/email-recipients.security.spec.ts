import { startTestApp, TestApp } from '../testing/test-app';

/**
 * An e-mail address is one plain address. `jane,attacker@evil.test` and `jane<attacker@evil.test>`
 * were accepted, and the enrollment mail went to attacker@evil.test: mailers read them as a list and
 * as a display name. A resource key could store such a value through `email` on POST /access/requests.
 */
describe('e-mail addresses that mailers would split', () => {
  let t: TestApp;
  let api: (method: 'post' | 'put', path: string, body: object) => ReturnType<ReturnType<TestApp['http']>['post']>;
  let resourceAuthorization: string;
  const hostile = ['jane,attacker@evil.test', 'jane<attacker@evil.test>', '"jane"@acme.test', 'jane;attacker@evil.test'];

  beforeAll(async () => {
    t = await startTestApp();
    const { account, authorization } = await t.newAccount();
    resourceAuthorization = (await t.newResource(account.id, 'Web')).authorization;
    api = (method, path, body) => t.as(authorization)[method](path).send(body);
  });
  afterAll(() => t.close());

  it.each(hostile)('POST /users refuses %p and sends no mail', async (email) => {
    const res = await api('post', '/users', {
      Identity: `u${hostile.indexOf(email)}`,
      Email: email,
      EnrollmentLink: { To: 'email', Ttl: 60 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Email must be in e-mail format.');
  });

  it.each(hostile)('a user update and an administrator invitation refuse %p', async (email) => {
    const user = await api('post', '/users', { Identity: `v${hostile.indexOf(email)}` });
    expect((await api('put', `/users/${user.body.model.id}`, { Email: email })).status).toBe(400);
    expect((await api('put', `/v2/users/${user.body.model.id}`, { Fields: [{ Name: 'Email', Value: email }] })).status).toBe(400);
    expect((await api('post', '/admins', { email, name: 'Eve', role: 'Admin' })).status).toBe(400);
  });

  it('POST /access/requests keeps no such address: the request is created without an e-mail', async () => {
    const res = await t
      .as(resourceAuthorization)
      .post('/access/requests')
      .send({ identity: 'wanda', email: 'wanda,attacker@evil.test', callback: { action: 'https://app.example/cb', target: '_self' } });
    expect(res.status).toBe(200);
    const [row] = await t.database.dataSource.query(`SELECT email FROM access_requests WHERE id = $1`, [res.body.model.id]);
    expect(row.email).toBeNull();
  });
});
