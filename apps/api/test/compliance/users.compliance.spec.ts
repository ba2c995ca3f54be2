import { UsersRepository } from '@twofold/persistence';
import { startTestApp, TestApp, TEST_NOW } from '../testing/test-app';

const KEY_HEX = '3132333435363738393031323334353637383930';

/** Requirements of the user API (fields, paging, account scoping, licences) that the users specs leave untested. */
describe('users API compliance', () => {
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount({ licenses: 1000 });
    auth = account.authorization;
    for (const name of ['Staff', 'Ops']) expect((await t.as(auth).post('/groups').send({ name })).status).toBe(201);
  });
  afterAll(() => t.close());

  const listed = async (identity: string) => {
    const res = await t.as(auth).get(`/users?identity=${encodeURIComponent(identity)}&withPhones=true`);
    expect(res.status).toBe(200);
    return res.body.model[0];
  };

  describe('POST /users Groups {Add}', () => {
    it('puts the new user in the named groups, in either casing, and answers them in the user', async () => {
      const pascal = await t
        .as(auth)
        .post('/users')
        .send({ Identity: 'grouped.pascal', Groups: { Add: ['Staff', 'ops'] } });
      expect(pascal.status).toBe(200);
      expect(pascal.body.model.groups).toEqual(['AllUsers', 'Ops', 'Staff']);
      const camel = await t
        .as(auth)
        .post('/users')
        .send({ identity: 'grouped.camel', groups: { add: ['Ops'] } });
      expect(camel.status).toBe(200);
      expect((await listed('grouped.camel')).groups).toEqual(['AllUsers', 'Ops']);
    });

    it('refuses an unknown group or AllUsers with 400 and creates no user', async () => {
      const unknown = await t
        .as(auth)
        .post('/users')
        .send({ Identity: 'grouped.ghost', Groups: { Add: ['Ghosts'] } });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ model: null, success: false, message: 'Group not found: Ghosts.', traceId: expect.any(String) });
      const system = await t
        .as(auth)
        .post('/users')
        .send({ Identity: 'grouped.ghost', Groups: { Add: ['AllUsers'] } });
      expect(system.status).toBe(400);
      expect(await listed('grouped.ghost')).toBeUndefined();
    });
  });

  describe('isEnrolled and authenticators', () => {
    it('isEnrolled is true exactly while an OTP token is configured; authenticators lists its kinds', async () => {
      const id = (await t.as(auth).post('/users').send({ Identity: 'token.holder' })).body.model.id;
      expect(await listed('token.holder')).toMatchObject({ isEnrolled: false, authenticators: [] });
      const register = (type: string) => t.as(auth).post(`/users/${id}/authenticators/${type}`).send({ Name: type, Key: KEY_HEX });
      const totp = await register('totptoken');
      expect(totp.status).toBe(200);
      expect(await listed('token.holder')).toMatchObject({ isEnrolled: true, authenticators: ['TotpToken'] });
      expect((await register('hotptoken')).status).toBe(200);
      expect(await listed('token.holder')).toMatchObject({ isEnrolled: true, authenticators: ['TotpToken', 'HotpToken'] });

      expect((await t.as(auth).delete(`/users/${id}/authenticators/totptoken/${totp.body.model.id}`)).status).toBe(200);
      expect(await listed('token.holder')).toMatchObject({ isEnrolled: true, authenticators: ['HotpToken'] });
      expect((await t.as(auth).delete(`/users/${id}/authenticators/hotptoken`)).status).toBe(200);
      expect(await listed('token.holder')).toMatchObject({ isEnrolled: false, authenticators: [] });
    });
  });

  describe("another account's user is 404 on every user operation", () => {
    let foreign: string;
    let foreignAuth: string;
    beforeAll(async () => {
      const other = await t.newAccount();
      foreignAuth = other.authorization;
      await t.as(foreignAuth).post('/groups').send({ name: 'Staff' });
      const created = await t
        .as(foreignAuth)
        .post('/users')
        .send({ Identity: 'theirs', Name: 'Theirs', Phone: '+79161234567', Groups: { Add: ['Staff'] } });
      foreign = created.body.model.id;
      await t
        .as(foreignAuth)
        .put(`/v2/users/${foreign}/customfields`)
        .send({ fields: [{ name: 'Site', value: 'HQ' }] });
      await t.as(foreignAuth).post(`/v2/users/${foreign}/lock`);
    });

    it.each<[string, 'post' | 'put' | 'delete', (id: string) => string, object | undefined]>([
      ['PUT /v2/users/{id}', 'put', (id) => `/v2/users/${id}`, { Fields: [{ Name: 'Name', Value: 'Mine' }] }],
      ['POST /v2/users/{id}/phone', 'post', (id) => `/v2/users/${id}/phone`, { PhoneNumber: '+16502530000' }],
      ['POST /v3/users/{id}/phones', 'post', (id) => `/v3/users/${id}/phones`, { PhoneNumbers: '+16502530000' }],
      ['PUT /v2/users/{id}/customfields', 'put', (id) => `/v2/users/${id}/customfields`, { fields: [{ name: 'Site', value: 'Mine' }] }],
      ['DELETE /v2/users/{id}/customfields', 'delete', (id) => `/v2/users/${id}/customfields`, { fieldNames: ['Site'] }],
      ['POST /v2/users/{id}/unlock', 'post', (id) => `/v2/users/${id}/unlock`, undefined],
      ['POST /v2/users/{id}/groups', 'post', (id) => `/v2/users/${id}/groups`, { GroupNames: ['Staff'] }],
      ['DELETE /v2/users/{id}/groups', 'delete', (id) => `/v2/users/${id}/groups`, { GroupNames: ['Staff'] }],
      ['POST /users/{id}/enroll', 'post', (id) => `/users/${id}/enroll`, { Ttl: 5 }],
      [
        'POST /users/{id}/authenticators/hotptoken',
        'post',
        (id) => `/users/${id}/authenticators/hotptoken`,
        { Name: 'Mine', Key: KEY_HEX },
      ],
      ['DELETE /users/{id}/authenticators/sms', 'delete', (id) => `/users/${id}/authenticators/sms`, undefined],
    ])('%s', async (_, method, path, body) => {
      let req = t.as(auth)[method](path(foreign));
      if (body) req = req.send(body);
      const res = await req;
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ model: null, success: false, message: 'User not found.', traceId: expect.any(String) });
    });

    it('left their user exactly as it was', async () => {
      const res = await t.as(foreignAuth).get('/users?identity=theirs&withPhones=true');
      expect(res.body.model).toEqual([
        expect.objectContaining({
          identity: 'theirs',
          name: 'Theirs',
          isLocked: true,
          isEnrolled: true,
          groups: ['AllUsers', 'Staff'],
          authenticators: ['Sms'],
          phones: ['+79161234567'],
          customFields: [{ name: 'Site', value: 'HQ' }],
        }),
      ]);
      expect((await t.as(foreignAuth).get(`/users/${foreign}/authenticators`)).body.model).toEqual({
        Sms: [expect.objectContaining({ name: '+79161234567' })],
      });
    });
  });

  describe('GET /users paging (offset 0, limit 100 by default, at most 1000)', () => {
    it('answers at most 100 users without limit, pages with offset, and refuses a limit over 1000 or not an integer', async () => {
      const other = await t.newAccount();
      const users = new UsersRepository(t.db);
      for (let i = 0; i < 101; i++) {
        await users.insert(other.account.id, {
          identity: `bulk${String(i).padStart(3, '0')}`,
          name: null,
          email: null,
          source: 'Api',
          createdAt: new Date(TEST_NOW.getTime() + i * 1000),
        });
      }
      const get = (query: string) => t.as(other).get(`/users${query}`);
      const first = await get('');
      expect(first.status).toBe(200);
      expect(first.body.model).toHaveLength(100);
      expect(first.body.model[0].identity).toBe('bulk000');
      const rest = await get('?offset=100');
      expect(rest.body.model.map((u: { identity: string }) => u.identity)).toEqual(['bulk100']);
      expect((await get('?limit=1000')).body.model).toHaveLength(101);
      for (const [query, message] of [
        ['?limit=1001', 'limit must not exceed 1000.'],
        ['?limit=1.5', 'limit must be a non-negative integer.'],
        ['?offset=-1', 'offset must be a non-negative integer.'],
        ['?offset=x', 'offset must be a non-negative integer.'],
      ]) {
        const res = await get(query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
      }
      expect((await t.as(other).get('/users/count')).body.model).toEqual({ total: 101, limit: 100 });
    });
  });
});
