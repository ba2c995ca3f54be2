import { startTestApp, TestApp } from '../testing/test-app';

/**
 * A 500 only for our bugs, never for bad input. PostgreSQL text and jsonb cannot hold
 * U+0000 nor an unpaired surrogate; either in any body or query string must be a 400 in the
 * endpoint's error body, and change nothing. On the POST access endpoints a refusal is 200
 * `success: false` instead, with the whole model on the `ra` family.
 */
/** What PostgreSQL could not store is refused with this text, on every endpoint. */
const UNSTORABLE_TEXT = 'Text must not contain the character U+0000 or an unpaired UTF-16 surrogate.';

function expectRefused(path: string, res: { status: number; body: unknown }): void {
  if (path === '/access/requests/ra') {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      message: UNSTORABLE_TEXT,
      traceId: expect.any(String),
      model: { id: null, status: 'Denied' },
    });
  } else if (path === '/access/requests') {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: null, success: false, message: UNSTORABLE_TEXT, traceId: expect.any(String) });
  } else {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ model: null, success: false, message: UNSTORABLE_TEXT, traceId: expect.any(String) });
  }
}

describe('U+0000 in input is 400, never 500', () => {
  let t: TestApp;
  let auth: string;
  let resourceAuth: string;
  let userId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    auth = account.authorization;
    resourceAuth = (await t.newResource(account.account.id)).authorization;
    userId = (await t.as(auth).post('/users').send({ Identity: 'nul.probe' })).body.model.id;
  });
  afterAll(() => t.close());

  const NUL = '\u0000';
  const KEY = 'ab'.repeat(20);

  it.each<[string, 'get' | 'post' | 'put' | 'delete', () => string, object | undefined, 'account' | 'resource']>([
    ['POST /users Identity', 'post', () => '/users', { Identity: `a${NUL}b` }, 'account'],
    ['POST /users Email', 'post', () => '/users', { Identity: 'nul.mail', Email: `a@b.c${NUL}` }, 'account'],
    ['GET /users identity filter', 'get', () => '/users?identity=a%00b', undefined, 'account'],
    ['PUT /users/{id} Name', 'put', () => `/users/${userId}`, { Name: `x${NUL}` }, 'account'],
    ['PUT /v2/users/{id} Fields', 'put', () => `/v2/users/${userId}`, { Fields: [{ Name: 'Name', Value: `x${NUL}` }] }, 'account'],
    [
      'PUT /v2/users/{id}/customfields name',
      'put',
      () => `/v2/users/${userId}/customfields`,
      { fields: [{ name: `a${NUL}`, value: 'x' }] },
      'account',
    ],
    [
      'PUT /v2/users/{id}/customfields value',
      'put',
      () => `/v2/users/${userId}/customfields`,
      { fields: [{ name: 'a', value: `x${NUL}` }] },
      'account',
    ],
    ['DELETE /v2/users/{id}/customfields', 'delete', () => `/v2/users/${userId}/customfields`, { fieldNames: [`a${NUL}`] }, 'account'],
    ['POST /v2/users/{id}/groups', 'post', () => `/v2/users/${userId}/groups`, { GroupNames: [`g${NUL}`] }, 'account'],
    ['POST /users/{id}/enroll Email', 'post', () => `/users/${userId}/enroll`, { Email: `a${NUL}@b.c`, Ttl: 5 }, 'account'],
    [
      'POST /users/{id}/authenticators/totptoken Name',
      'post',
      () => `/users/${userId}/authenticators/totptoken`,
      { Name: `t${NUL}`, Key: KEY },
      'account',
    ],
    ['POST /groups name', 'post', () => '/groups', { name: `g${NUL}` }, 'account'],
    ['GET /access/requests identity filter', 'get', () => '/access/requests?createdAt=2026-05-19&identity=a%00b', undefined, 'account'],
    ['POST /access/requests identity', 'post', () => '/access/requests', { identity: `a${NUL}` }, 'resource'],
    ['POST /access/requests claims', 'post', () => '/access/requests', { identity: 'a', claims: { x: `a${NUL}` } }, 'resource'],
    ['POST /access/requests/ra identity', 'post', () => '/access/requests/ra', { identity: `a${NUL}`, passCode: '123456' }, 'resource'],
  ])('%s', async (_, method, path, body, key) => {
    let req = t.as(key === 'account' ? auth : resourceAuth)[method](path());
    if (body) req = req.send(body);
    expectRefused(path(), await req);
  });

  it.each<[string, () => string, object, 'account' | 'resource']>([
    ['POST /users Identity', () => '/users', { Identity: 'lone\uD800' }, 'account'],
    ['POST /users Name (low surrogate alone)', () => '/users', { Identity: 'lone.low', Name: '\uDC00x' }, 'account'],
    [
      'PUT /v2/users/{id}/customfields name',
      () => `/v2/users/${userId}/customfields`,
      { fields: [{ name: 'a\uD800', value: 'x' }] },
      'account',
    ],
    ['POST /access/requests identity (would be stored as U+FFFD)', () => '/access/requests', { identity: 'lone\uD800' }, 'resource'],
    ['POST /access/requests claims', () => '/access/requests', { identity: 'a', claims: { x: '\uD800' } }, 'resource'],
  ])('an unpaired UTF-16 surrogate: %s', async (_, path, body, key) => {
    const method = path().includes('customfields') ? 'put' : 'post';
    const res = await t
      .as(key === 'account' ? auth : resourceAuth)
      [method](path())
      .send(body);
    expectRefused(path(), res);
  });

  it('a proper surrogate pair (an emoji) is ordinary text', async () => {
    const res = await t.as(auth).post('/users').send({ Identity: 'emoji.\uD83D\uDE00', Name: '\uD83D\uDE00' });
    expect(res.status).toBe(200);
    expect(res.body.model).toMatchObject({ identity: 'emoji.\u{1F600}', name: '\u{1F600}' });
    expect((await t.as(auth).delete(`/users/${res.body.model.id}`)).status).toBe(200);
  });

  it('a refused NUL changes nothing', async () => {
    const users = await t.as(auth).get('/users?identity=nul.probe&withPhones=true');
    expect(users.body.model).toEqual([
      expect.objectContaining({
        identity: 'nul.probe',
        name: null,
        customFields: [],
        groups: ['AllUsers'],
        authenticators: [],
        isEnrolled: false,
      }),
    ]);
    expect((await t.as(auth).get('/users')).body.model).toHaveLength(1);
  });
});
