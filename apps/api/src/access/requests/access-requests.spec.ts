import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../../test/testing/test-app';
import { StaleAccessRequestsSweeper } from './stale-access-requests.sweeper';

describe('access requests API', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  let otherResource: Awaited<ReturnType<TestApp['newResource']>>;
  const totpKey = Buffer.from('3132333435363738393031323334353637383930', 'hex');
  const hotpKey = Buffer.from('0102030405060708090a0b0c0d0e0f1011121314', 'hex');

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'VPN');
    otherResource = await t.newResource((await t.newAccount({ name: 'Other' })).account.id, 'Elsewhere');
  });
  afterAll(() => t.close());

  async function userWith(identity: string, kind: 'TotpToken' | 'HotpToken' | null, options: { locked?: boolean } = {}) {
    const user = await newUser(t.db, accountId, identity, { locked: options.locked, now: t.clock.now() });
    if (kind)
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, {
        kind,
        key: kind === 'TotpToken' ? totpKey : hotpKey,
        now: t.clock.now(),
      });
    return user;
  }
  const totpNow = () => generateTotp({ secret: totpKey, time: t.clock.now().getTime() });
  const ra = (body: unknown, authorization = resource.authorization) =>
    t
      .as(authorization)
      .post('/access/requests/ra')
      .send(body as object);
  const create = (body: unknown, authorization = resource.authorization) =>
    t
      .as(authorization)
      .post('/access/requests')
      .send(body as object);

  describe('POST /access/requests', () => {
    it('creates an awaiting request with keys in either casing', async () => {
      for (const body of [
        {
          identity: 'ann',
          email: 'ann@example.test',
          language: 'en',
          claims: { a: 1 },
          callback: { action: 'https://app.example/cb', target: '_top' },
        },
        {
          Identity: 'ann',
          Email: 'ann@example.test',
          Language: 'EN',
          Claims: { a: 1 },
          Callback: { Action: 'https://app.example/cb', Target: '_top' },
        },
      ]) {
        const res = await create(body);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          model: { id: expect.any(String), url: expect.any(String), status: 'AwaitingAuthentication' },
          success: true,
          message: null,
        });
        expect(res.body.model.url).toBe(`http://twofold.test/access/${res.body.model.id}`);
        const [row] = await t.database.dataSource.query('SELECT * FROM access_requests WHERE id = $1', [res.body.model.id]);
        expect(row).toMatchObject({
          identity: 'ann',
          email: 'ann@example.test',
          language: 'en',
          claims: { a: 1 },
          callback_action: 'https://app.example/cb',
          callback_target: '_top',
          resource_id: resource.resource.id,
          account_id: accountId,
        });
      }
      const minimal = await create({ identity: 'bea' });
      const [row] = await t.database.dataSource.query('SELECT language, callback_action FROM access_requests WHERE id = $1', [
        minimal.body.model.id,
      ]);
      expect(row).toEqual({ language: 'ru', callback_action: null });
    });

    it('refuses bad input with 200 success:false; only malformed JSON is 400', async () => {
      const notAbsolute = 'Callback.Action must be an absolute http or https URL.';
      const refusals: [object, string][] = [
        [{}, 'Identity must not be empty.'],
        [{ identity: '' }, 'Identity must not be empty.'],
        [{ identity: '   ' }, 'Identity must not be empty.'],
        [{ identity: 'zed', claims: [1, 2] }, 'Claims must be a JSON object.'],
        [{ identity: 'zed', callback: { action: '/relative', target: '_self' } }, notAbsolute],
        [{ identity: 'zed', callback: { action: 'javascript:alert(1)' } }, notAbsolute],
        [
          { identity: 'zed', callback: { action: 'https://app.example/cb', target: '_blank' } },
          'Callback.Target must be one of: _self, _parent, _top.',
        ],
      ];
      for (const [body, message] of refusals) {
        const res = await create(body);
        expect({ body, status: res.status }).toEqual({ body, status: 200 });
        expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
      }
      const [requests] = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM access_requests WHERE identity = 'zed'`);
      expect(requests.n).toBe(0);
      const malformed = await t.as(resource).post('/access/requests').set('Content-Type', 'application/json').send('{"identity":');
      expect(malformed.status).toBe(400);
    });

    it('needs the resource key: none, a wrong secret or the account key is 401', async () => {
      const none = await t.http().post('/access/requests').send({ identity: 'ann' });
      expect(none.status).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Basic realm="api"');
      expect(none.body).toMatchObject({ model: null, success: false });
      expect((await create({ identity: 'ann' }, accountAuth)).status).toBe(401);
      const wrong = `Basic ${Buffer.from(`${resource.apiKey}:nope`).toString('base64')}`;
      expect((await create({ identity: 'ann' }, wrong)).status).toBe(401);
    });
  });

  describe('GET /access/requests/{id}', () => {
    it('lets the resource poll its account’s request; expiry after 15 minutes is persisted', async () => {
      const id = (await create({ identity: 'cid' })).body.model.id;
      const polled = await t.as(resource).get(`/access/requests/${id}`);
      expect(polled.status).toBe(200);
      expect(polled.body).toEqual({
        model: {
          id,
          identity: 'cid',
          status: 'AwaitingAuthentication',
          resourceName: 'VPN',
          createdAt: '2026-05-20T10:00:00.000Z',
          grantedAt: null,
          authenticator: null,
          countryCode: null,
          region: null,
          city: null,
          remoteHost: null,
          ip: null,
          twoFADeviceIp: null,
          bypassed: false,
          channel: 'page',
        },
        success: true,
        message: null,
      });
      t.clock.advance(15 * 60_000 - 1000);
      expect((await t.as(resource).get(`/access/requests/${id}`)).body.model.status).toBe('AwaitingAuthentication');
      t.clock.advance(1000);
      expect((await t.as(resource).get(`/access/requests/${id}`)).body.model.status).toBe('Expired');
      const [row] = await t.database.dataSource.query('SELECT status FROM access_requests WHERE id = $1', [id]);
      expect(row.status).toBe('Expired');
      t.clock.set(new Date('2026-05-20T10:00:00.000Z'));
    });

    it('is 404 for another account’s resource, an unknown id or a malformed id; 401 for the account key', async () => {
      const id = (await create({ identity: 'dan' })).body.model.id;
      expect((await t.as(otherResource).get(`/access/requests/${id}`)).status).toBe(404);
      expect((await t.as(resource).get('/access/requests/9b2f7f4e-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await t.as(resource).get('/access/requests/nope')).status).toBe(404);
      expect((await t.as(accountAuth).get(`/access/requests/${id}`)).status).toBe(401);
    });
  });

  describe('GET /access/requests (history)', () => {
    it('lists one past day with every history field, filters by identity and pages', async () => {
      t.clock.set(new Date('2026-05-18T08:00:00.000Z'));
      await userWith('kim', 'TotpToken');
      const first = (await ra({ identity: 'kim', passCode: totpNow() })).body.model.id;
      t.clock.advance(60_000);
      const second = (await create({ identity: 'lou' })).body.model.id;
      t.clock.advance(60_000);
      await create({ identity: 'Kim' });
      t.clock.set(new Date('2026-05-20T10:00:00.000Z'));

      const res = await t.as(accountAuth).get('/access/requests?createdAt=2026-05-18');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: null, model: { offset: 0, limit: 100, totalElements: 3 } });
      expect(res.body.model.data[0]).toEqual({
        id: first,
        identity: 'kim',
        status: 'Granted',
        resourceName: 'VPN',
        createdAt: '2026-05-18T08:00:00.000Z',
        grantedAt: '2026-05-18T08:00:00.000Z',
        authenticator: 'TotpToken',
        countryCode: null,
        region: null,
        city: null,
        remoteHost: null,
        ip: null,
        twoFADeviceIp: null,
        bypassed: false,
        channel: 'ra',
      });
      // left awaiting: shown Expired by now; the read wrote nothing, the sweep writes it
      expect(res.body.model.data[1]).toMatchObject({ id: second, status: 'Expired' });
      const statusOf = async () =>
        (await t.database.dataSource.query('SELECT status FROM access_requests WHERE id = $1', [second]))[0].status;
      expect(await statusOf()).toBe('AwaitingAuthentication');
      expect(await t.app.get(StaleAccessRequestsSweeper).sweep()).toBeGreaterThanOrEqual(1);
      expect(await statusOf()).toBe('Expired');

      const kim = await t.as(accountAuth).get('/access/requests?CreatedAt=2026-05-18&Identity=KIM&offset=1&limit=1');
      expect(kim.body.model).toMatchObject({ offset: 1, limit: 1, totalElements: 2 });
      expect(kim.body.model.data.map((item: { identity: string }) => item.identity)).toEqual(['Kim']);
      const empty = await t.as(accountAuth).get('/access/requests?createdAt=2026-05-17');
      expect(empty.body.model).toEqual({ data: [], offset: 0, limit: 100, totalElements: 0 });
    });

    it('validates createdAt and the window', async () => {
      const get = (query: string) => t.as(accountAuth).get(`/access/requests${query}`);
      const notPast = 'createdAt must be a past day, not today or later.';
      for (const [query, message] of [
        ['', 'createdAt is required.'],
        ['?createdAt=2026-05-20', notPast],
        ['?createdAt=2026-05-21', notPast],
        ['?createdAt=20260519', 'createdAt must be a date in the format yyyy-mm-dd.'],
        ['?createdAt=2026-02-30', 'createdAt is not a valid date.'],
        ['?createdAt=2026-05-19&limit=1001', 'limit must not exceed 1000.'],
        ['?createdAt=2026-05-19&offset=-1', 'offset must be a non-negative integer.'],
      ]) {
        const res = await get(query);
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
        expect(res.body).toMatchObject({ model: null, success: false, message, traceId: expect.any(String) });
      }
      expect((await get('?createdAt=2026-05-19&limit=1000')).status).toBe(200);
    });

    it('needs the account key: a resource key is 401', async () => {
      expect((await t.as(resource).get('/access/requests?createdAt=2026-05-19')).status).toBe(401);
      expect((await t.http().get('/access/requests?createdAt=2026-05-19')).status).toBe(401);
    });
  });
});
