import { gzipSync } from 'node:zlib';
import { postBytes } from '../testing/post-bytes';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Table-driven: no POST endpoint that clients call at sign-in answers a non-2xx outside
 * 401 (credentials), 429 (throttled), 400 (a body that cannot be read as JSON) and 413 (over 1 MiB),
 * whatever the body. Clients read any other status as "API unreachable", and several then let the
 * user in without a second factor. Every other refusal is 200 `success: false`; on the `ra` family
 * with the whole model, status Denied.
 */
describe('POST access endpoints never answer an outage status for bad input', () => {
  let t: TestApp;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount({ licenses: 1 });
    resource = await t.newResource(account.account.id, 'VPN');
    await t.as(account).post('/users').send({ Identity: 'the-only-licence' });
  });
  afterAll(() => t.close());

  const ENDPOINTS = [
    '/access/requests',
    '/access/requests/ra',
    '/access/requests/ra/challenge',
    '/access/requests/md',
    '/token/refresh',
  ] as const;
  const RA_FAMILY = new Set<string>(['/access/requests/ra', '/access/requests/ra/challenge', '/access/requests/md']);
  const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  /** JSON bodies a client (or an attacker holding a resource key) might send: each must be a 200 refusal. */
  const JSON_BODIES: [string, string][] = [
    ['an empty object', '{}'],
    ['an array', '[]'],
    ['a string', '"identity"'],
    ['null', 'null'],
    ['a number', '42'],
    ['true', 'true'],
    ['identity a number', '{"identity": 42, "passCode": "123456"}'],
    ['identity an array', '{"identity": ["a"], "passCode": "123456"}'],
    ['identity an object', '{"identity": {"a": 1}}'],
    ['identity blank', '{"identity": "   "}'],
    ['identity 10 000 characters', JSON.stringify({ identity: 'x'.repeat(10_000) })],
    ['identity with U+0000', '{"identity": "a\\u0000b"}'],
    ['identity with an unpaired surrogate', '{"identity": "a\\ud800"}'],
    ['passCode a number', '{"identity": "nobody-here", "passCode": 123456}'],
    ['passCode an object', '{"identity": "nobody-here", "passCode": {"code": "1"}}'],
    ['passCode 100 000 characters', JSON.stringify({ identity: 'nobody-here', passCode: '1'.repeat(100_000) })],
    ['challenge a number', '{"identity": "nobody-here", "challenge": 123456, "requestId": "x"}'],
    ['requestId a number', '{"identity": "nobody-here", "challenge": "123456", "requestId": 7}'],
    ['callback a string', '{"identity": "u", "callback": "https://app.example/cb"}'],
    ['callback action javascript:alert', '{"identity": "u", "callback": {"action": "javascript:alert(1)"}}'],
    ['callback action data:', '{"identity": "u", "callback": {"action": "data:text/html,<script>x</script>"}}'],
    ['callback action relative', '{"identity": "u", "callback": {"action": "/cb"}}'],
    ['callback target _blank', '{"identity": "u", "callback": {"action": "https://app.example/cb", "target": "_blank"}}'],
    ['callback action 3000 characters', JSON.stringify({ identity: 'u', callback: { action: `https://app.example/${'a'.repeat(3000)}` } })],
    ['claims an array', '{"identity": "u", "claims": [1, 2]}'],
    ['claims a string', '{"identity": "u", "claims": "x"}'],
    ['claims over 8 KiB', JSON.stringify({ identity: 'u', claims: { big: 'x'.repeat(9000) } })],
    ['claims nested 50 000 levels', `{"identity": "u", "claims": {"a": ${deep(50_000)}}}`],
    ['a key __proto__', '{"__proto__": {"identity": "x"}, "identity": 5}'],
    ['nested constructor keys', '{"identity": {"constructor": {"prototype": {}}}}'],
    ['AccessToken a number', '{"AccessToken": 5}'],
    ['AccessToken garbage', '{"AccessToken": "not.a.jwt"}'],
  ];

  /** Bodies that cannot be read as JSON at all: the one 400 clients expect. */
  const UNREADABLE: [string, (path: string) => PromiseLike<{ status: number; body: unknown }>][] = [
    ['malformed JSON', (path) => post(path).set('Content-Type', 'application/json').send('{"identity":')],
    ['an unsupported charset', (path) => post(path).set('Content-Type', 'application/json; charset=ebcdic').send('{"identity":"a"}')],
    ['gzip that is not gzip', (path) => rawPost(path, { 'content-encoding': 'gzip' }, Buffer.from('not gzip at all'))],
  ];

  const post = (path: string) => t.as(resource).post(path);

  const rawPost = (path: string, headers: Record<string, string>, bytes: Buffer) =>
    postBytes(t, path, { authorization: resource.authorization, ...headers }, bytes);

  function expectRefusal(path: string, res: { status: number; body: Record<string, unknown> }): void {
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect(res.body).toMatchObject({ success: false, message: expect.any(String) });
    if (RA_FAMILY.has(path)) expect(res.body['model']).toMatchObject({ status: 'Denied', bypassed: false });
    else expect(res.body['model']).toBeNull();
  }

  describe.each(ENDPOINTS)('%s', (path) => {
    it.each(JSON_BODIES)('refuses %s with 200 success:false', async (_, body) => {
      expectRefusal(path, await post(path).set('Content-Type', 'application/json').send(body));
    });

    it('refuses a body that is not JSON (form, text, none) with 200 success:false', async () => {
      expectRefusal(path, await post(path).type('form').send({ identity: 'u' }));
      expectRefusal(path, await post(path).set('Content-Type', 'text/plain').send('identity=u'));
      expectRefusal(path, await post(path));
    });

    it.each(UNREADABLE)('answers %s with 400', async (_, send) => {
      const res = await send(path);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: 'Malformed JSON body.' });
    });

    it('answers a gzip body that holds a refusal like the same body unzipped', async () => {
      expectRefusal(path, await rawPost(path, { 'content-encoding': 'gzip' }, gzipSync('{"identity": 7}')));
    });

    it('answers a body over 1 MiB with 413 and wrong credentials with 401', async () => {
      expect(
        (
          await post(path)
            .set('Content-Type', 'application/json')
            .send(JSON.stringify({ identity: 'x'.repeat(1024 * 1024) }))
        ).status,
      ).toBe(413);
      expect((await t.http().post(path).auth(resource.apiKey, 'wrong-secret').send({ identity: 'u' })).status).toBe(401);
      expect((await t.http().post(path).send({ identity: 'u' })).status).toBe(401);
    });
  });

  it('answers an identity the account does not know, while every licence is in use, with 200 "Users quota exceeded" and creates nothing', async () => {
    const res = await post('/access/requests').send({ identity: 'one-too-many' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: null, success: false, message: 'Users quota exceeded' });
    const [rows] = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM access_requests WHERE identity = 'one-too-many'`);
    expect(rows.n).toBe(0);
    // the known identity still gets its request
    const known = await post('/access/requests').send({ identity: 'THE-ONLY-LICENCE' });
    expect(known.body).toMatchObject({ success: true, model: { status: 'AwaitingAuthentication' } });
  });
});
