import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Found by an attack run: input that reached PostgreSQL or class-transformer as a 500. Bad
 * input is a refusal in the endpoint's error body, never a 500, and changes nothing.
 */
describe('hostile input is refused, never a 500', () => {
  let t: TestApp;
  let auth: string;
  let resourceAuth: string;
  let userId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    auth = account.authorization;
    resourceAuth = (await t.newResource(account.account.id)).authorization;
    userId = (await t.as(auth).post('/users').send({ Identity: 'hostile.probe' })).body.model.id;
  });
  afterAll(() => t.close());

  describe('U+0000 in a path id (finding 2): the journal would have stored it', () => {
    it.each<[string, 'get' | 'post' | 'put' | 'delete', string, object | undefined]>([
      ['DELETE /groups/{id}', 'delete', '/groups/%00', undefined],
      ['PUT /groups/{id}', 'put', '/groups/a%00b', { name: 'g' }],
      ['DELETE /users/{id}', 'delete', '/users/%00', undefined],
      ['PUT /v2/users/{id}', 'put', '/v2/users/%00', { Fields: [{ Name: 'Name', Value: 'x' }] }],
      ['POST /users/{id}/authenticators/{type}', 'post', '/users/%00/authenticators/totptoken', { Name: 'T', Key: 'ab'.repeat(20) }],
      ['DELETE /users/{id}/authenticators/{type}/{id}', 'delete', `/users/${'x'}/authenticators/totptoken/%00`, undefined],
      ['DELETE /admins/{id}', 'delete', '/admins/%00', undefined],
      ['DELETE /resources/{id}', 'delete', '/resources/%00', undefined],
    ])('%s', async (_, method, path, body) => {
      let req = t.as(auth)[method](path);
      if (body) req = req.send(body);
      const res = await req;
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({
        message: 'Text must not contain the character U+0000 or an unpaired UTF-16 surrogate.',
        traceId: expect.any(String),
      });
    });

    it('on a sign-in call too, where a refusal is 200 success: false', async () => {
      const res = await t.as(resourceAuth).get('/access/requests/%00');
      expect(res.status).toBeLessThan(500);
    });
  });

  describe('constructor, __proto__ and prototype keys at any depth (finding 3)', () => {
    const nested = (key: string, depth: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { [key]: { polluted: true } };
      for (let level = 1; level < depth; level++) value = { x: value };
      return value;
    };
    const cases: [string, 'post' | 'put', () => string, Record<string, unknown>, 'account' | 'resource'][] = [];
    for (const key of ['constructor', '__proto__', 'prototype']) {
      for (const depth of [1, 2, 3]) {
        cases.push([`POST /groups, ${key} at depth ${depth}`, 'post', () => '/groups', { name: 'g1', ...nested(key, depth) }, 'account']);
        cases.push([
          `POST /resources, ${key} at depth ${depth}`,
          'post',
          () => '/resources',
          { name: 'r1', ...nested(key, depth) },
          'account',
        ]);
        cases.push([
          `POST /users, ${key} at depth ${depth}`,
          'post',
          () => '/users',
          { Identity: `k.${key}.${depth}`, ...nested(key, depth) },
          'account',
        ]);
        cases.push([
          `PUT /v2/users/{id}, ${key} at depth ${depth}`,
          'put',
          () => `/v2/users/${userId}`,
          { Fields: [{ Name: 'Name', Value: 'n', ...nested(key, depth) }] },
          'account',
        ]);
        cases.push([
          `POST /access/requests, ${key} at depth ${depth}`,
          'post',
          () => '/access/requests',
          { identity: 'hostile.probe', claims: nested(key, depth) },
          'resource',
        ]);
      }
    }

    it.each(cases)('%s', async (_, method, path, body, key) => {
      // sent as raw JSON text: a JS object literal would turn `__proto__` into a prototype, not a key
      const res = await t
        .as(key === 'account' ? auth : resourceAuth)
        [method](path())
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status).toBeLessThan(500);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    });
  });

  describe('astral characters cut in two (found by the fuzz run)', () => {
    // a 403-character e-mail of emoji is refused, and the refusal is journaled with the e-mail cut to
    // 254 UTF-16 units: the cut fell inside an emoji, and jsonb refused the lone surrogate as a 500
    it('POST /admins with a long e-mail of emoji is 400', async () => {
      const res = await t
        .as(auth)
        .post('/admins')
        .send({ email: `|&@${'😀'.repeat(200)}`, role: 'Admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'email must be an e-mail address.', traceId: expect.any(String) });
    });

    it('POST /v3/users/{id}/phones with a phone of emoji is refused, never a 500', async () => {
      const res = await t
        .as(auth)
        .post(`/v3/users/${userId}/phones`)
        .send({ phones: [`+1${'😀'.repeat(30)}`] });
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ message: 'PhoneNumbers must not be empty.', traceId: expect.any(String) });
    });
  });
});
