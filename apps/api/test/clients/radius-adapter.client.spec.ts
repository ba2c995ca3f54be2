import { randomUUID } from 'node:crypto';
import { AccountId, RA_STATUSES } from '@twofold/domain';
import { newUser } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, RA_MODEL_FIELDS, totpCode, totpUser, wrongTotpCode } from './client-kit';

/**
 * The RADIUS adapter (v2 and v1) in front of a VPN or RD Gateway, and the OpenVPN Access Server
 * script, replayed as they call us: `POST /access/requests/ra` with the whole camelCase
 * body and its nulls (`passCode: null` asks for the code in a second step), then
 * `POST /access/requests/ra/challenge` `{identity, challenge, requestId}` with the `id` it kept as the
 * RADIUS State. They parse `model.status` into an enum of exactly AwaitingAuthentication, Granted and
 * Denied, show `replyMessage` as the Reply-Message, and read anything but 2xx/401/429 as "API
 * unreachable" — which their "bypass when unreachable" setting turns into a login without a second
 * factor.
 */
describe('client: RADIUS adapter (ra, ra/challenge)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;
  let rdGateway: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    vpn = await t.newResource(accountId, 'VPN');
    rdGateway = await t.newResource(accountId, 'RD Gateway');
  });
  afterAll(() => t.close());

  /** The v2 adapter's first-step body: every property serialized, nulls included. */
  const firstStep = (identity: string, passCode: string | null) => ({
    identity,
    name: null,
    email: null,
    phone: null,
    passCode,
    callingStationId: '198.51.100.23',
    calledStationId: 'vpn-gw-1',
    capabilities: { inlineEnroll: true },
    groupPolicyPreset: { signUpGroups: '' },
  });

  async function call(path: 'ra' | 'ra/challenge', body: object, options: { resource?: typeof vpn; traceId?: string } = {}) {
    const req = t
      .as((options.resource ?? vpn).authorization)
      .post(`/access/requests/${path}`)
      .set('Content-Type', 'application/json; charset=utf-8');
    if (options.traceId) req.set('mf-trace-id', options.traceId);
    return req.send(JSON.stringify(body));
  }

  /** Reads an answer as the adapter does; fails where the adapter would count "unreachable". */
  function asAdapter(res: { status: number; body: { success: boolean; message: string | null; model: Record<string, unknown> | null } }) {
    expect(clientReading(res.status)).toBe('answer');
    const model = res.body.model;
    expect(model).not.toBeNull();
    expect(Object.keys(model as object).sort()).toEqual(RA_MODEL_FIELDS);
    const status = (model as { status: string }).status;
    expect(RA_STATUSES).toContain(status);
    expect(res.body.success).toBe(status !== 'Denied');
    const reply = (model as { replyMessage: string }).replyMessage;
    expect(Buffer.byteLength(reply, 'utf8')).toBeLessThanOrEqual(253);
    expect(reply.length).toBeGreaterThan(0);
    return model as {
      id: string | null;
      status: string;
      replyMessage: string;
      authenticator: string | null;
      authenticatorId: string | null;
      account: string | null;
      bypassed: boolean;
    };
  }

  const row = async (id: string) =>
    (await t.database.dataSource.query('SELECT status, failed_attempts, channel, ip FROM access_requests WHERE id = $1', [id]))[0];

  it('two steps: passCode null → AwaitingAuthentication with the request id; a wrong challenge asks again; the right one is Granted', async () => {
    const { authenticator } = await totpUser(t, accountId, 'CORP\\anna');
    const first = asAdapter(await call('ra', firstStep('CORP\\anna', null)));
    expect(first).toMatchObject({ status: 'AwaitingAuthentication', authenticator: null, bypassed: false });
    expect(first.id).toEqual(expect.any(String));
    expect(first.replyMessage).toBe('Введите код из приложения-аутентификатора или токена.');
    expect(await row(first.id as string)).toEqual({
      status: 'AwaitingAuthentication',
      failed_attempts: 0,
      channel: 'ra',
      ip: '198.51.100.23',
    });
    // its id is the RADIUS State, not an access page: nobody can take the request over in a browser
    expect((await t.http().get(`/access/${first.id}`)).status).toBe(404);

    const wrong = asAdapter(await call('ra/challenge', { identity: 'CORP\\anna', challenge: wrongTotpCode(t), requestId: first.id }));
    expect(wrong).toMatchObject({ id: first.id, status: 'AwaitingAuthentication' });
    expect(wrong.replyMessage).toContain('Неверный код');

    const right = asAdapter(await call('ra/challenge', { identity: 'CORP\\anna', challenge: totpCode(t), requestId: first.id }));
    expect(right).toMatchObject({
      id: first.id,
      status: 'Granted',
      authenticator: 'TotpToken',
      authenticatorId: authenticator.id,
      account: 'Key fob',
      bypassed: false,
    });
    const polled = await t.as(vpn).get(`/access/requests/${first.id}`);
    expect(polled.body.model).toMatchObject({ status: 'Granted', authenticator: 'TotpToken', ip: '198.51.100.23', resourceName: 'VPN' });
  });

  it('an empty or absent passCode is the first step too', async () => {
    await totpUser(t, accountId, 'boris');
    expect(asAdapter(await call('ra', firstStep('boris', ''))).status).toBe('AwaitingAuthentication');
    const withoutPassCode: Partial<ReturnType<typeof firstStep>> = firstStep('boris', null);
    delete withoutPassCode.passCode;
    expect(asAdapter(await call('ra', withoutPassCode)).status).toBe('AwaitingAuthentication');
  });

  it('the fifth wrong challenge is Denied, and the request takes no code after that', async () => {
    await totpUser(t, accountId, 'vera');
    const { id } = asAdapter(await call('ra', firstStep('vera', null)));
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const again = asAdapter(await call('ra/challenge', { identity: 'vera', challenge: wrongTotpCode(t, attempt), requestId: id }));
      expect(again.status).toBe('AwaitingAuthentication');
      expect(again.replyMessage).toContain(`осталось попыток: ${5 - attempt} из 5`);
    }
    expect(asAdapter(await call('ra/challenge', { identity: 'vera', challenge: wrongTotpCode(t, 5), requestId: id })).status).toBe(
      'Denied',
    );
    expect(asAdapter(await call('ra/challenge', { identity: 'vera', challenge: totpCode(t), requestId: id })).status).toBe('Denied');
    expect(await row(id as string)).toMatchObject({ status: 'Denied', failed_attempts: 5 });
  });

  it('a request that expired is Denied, never Expired (a status the adapter cannot parse)', async () => {
    await totpUser(t, accountId, 'gleb');
    const { id } = asAdapter(await call('ra', firstStep('gleb', null)));
    t.clock.advance(15 * 60_000);
    const late = asAdapter(await call('ra/challenge', { identity: 'gleb', challenge: totpCode(t), requestId: id }));
    expect(late.status).toBe('Denied');
    expect(late.replyMessage).toContain('срок действия');
    expect((await row(id as string)).status).toBe('Expired');
  });

  it.each([
    ['t', 'Telegram'],
    ['m', 'Push'],
    ['s', 'SMS'],
    ['c', 'call'],
  ])(
    'passCode "%s" for a user who can only answer with a code: a preference, so the code prompt, the reply naming the method',
    async (letter, name) => {
      await totpUser(t, accountId, `letter-${letter}`);
      const res = await call('ra', { ...firstStep(`letter-${letter}`, letter), language: 'en' });
      const model = asAdapter(res);
      expect(model.status).toBe('AwaitingAuthentication');
      expect(model.replyMessage.toLowerCase()).toContain(name.toLowerCase());
      expect(model.replyMessage).toContain('not available');
      const right = asAdapter(await call('ra/challenge', { identity: `letter-${letter}`, challenge: totpCode(t), requestId: model.id }));
      expect(right.status).toBe('Granted');
    },
  );

  it('an identity the account does not know is Denied with message UserNotRegistered, the whole model, and nobody is registered', async () => {
    const res = await call('ra', firstStep('stranger', null));
    expect(res.body).toMatchObject({ success: false, message: 'UserNotRegistered' });
    expect(asAdapter(res)).toMatchObject({ status: 'Denied', id: expect.any(String) });
    const [users] = await t.database.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE identity = 'stranger'`);
    expect(users.n).toBe(0);
  });

  it('a user without a second factor is Denied with a reply saying to set one up; a locked user is Denied', async () => {
    await newUser(t.db, accountId, 'nofactor', { now: t.clock.now() });
    const bare = asAdapter(await call('ra', { ...firstStep('nofactor', null), language: 'en' }));
    expect(bare).toMatchObject({ status: 'Denied', replyMessage: 'Access denied: set up a second factor first.' });
    await totpUser(t, accountId, 'locked.one', { locked: true });
    expect(asAdapter(await call('ra', firstStep('locked.one', totpCode(t)))).status).toBe('Denied');
  });

  it('a challenge for another resource, another identity or an unknown request is Denied and leaves the request as it was', async () => {
    await totpUser(t, accountId, 'dina');
    await totpUser(t, accountId, 'egor');
    const { id } = asAdapter(await call('ra', firstStep('dina', null)));
    const foreign = [
      call('ra/challenge', { identity: 'dina', challenge: totpCode(t), requestId: id }, { resource: rdGateway }),
      call('ra/challenge', { identity: 'egor', challenge: totpCode(t), requestId: id }),
      call('ra/challenge', { identity: 'dina', challenge: totpCode(t), requestId: randomUUID() }),
      call('ra/challenge', { identity: 'dina', challenge: totpCode(t), requestId: 'not-a-state' }),
      call('ra/challenge', { identity: 'dina', challenge: totpCode(t) }),
    ];
    for (const res of await Promise.all(foreign)) expect(asAdapter(res)).toMatchObject({ status: 'Denied', id: null });
    expect(await row(id as string)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0 });
    // still usable by its own resource and identity
    expect(asAdapter(await call('ra/challenge', { identity: 'DINA', challenge: totpCode(t), requestId: id })).status).toBe('Granted');
  });

  it('a request of the access page cannot be continued through ra/challenge', async () => {
    await totpUser(t, accountId, 'fedor');
    const created = await t.as(vpn).post('/access/requests').send({ identity: 'fedor' });
    const pageRequest = created.body.model.id;
    expect(asAdapter(await call('ra/challenge', { identity: 'fedor', challenge: totpCode(t), requestId: pageRequest })).status).toBe(
      'Denied',
    );
    expect(await row(pageRequest)).toMatchObject({ status: 'AwaitingAuthentication', failed_attempts: 0 });
  });

  it('a decided request is Denied on a later challenge; a code accepted once is never accepted again, across steps', async () => {
    await totpUser(t, accountId, 'galina');
    t.clock.advance(30_000);
    const code = totpCode(t);
    expect(asAdapter(await call('ra', firstStep('galina', code))).status).toBe('Granted');
    const { id } = asAdapter(await call('ra', firstStep('galina', null)));
    const replayed = asAdapter(await call('ra/challenge', { identity: 'galina', challenge: code, requestId: id }));
    expect(replayed.status).toBe('AwaitingAuthentication');
    t.clock.advance(30_000);
    expect(asAdapter(await call('ra/challenge', { identity: 'galina', challenge: totpCode(t), requestId: id })).status).toBe('Granted');
    expect(asAdapter(await call('ra/challenge', { identity: 'galina', challenge: totpCode(t, 30_000), requestId: id })).status).toBe(
      'Denied',
    );
  });

  it('ten parallel right challenges of one request: exactly one Granted', async () => {
    await totpUser(t, accountId, 'hana');
    t.clock.advance(30_000);
    const { id } = asAdapter(await call('ra', firstStep('hana', null)));
    const code = totpCode(t);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call('ra/challenge', { identity: 'hana', challenge: code, requestId: id })),
    );
    expect(answers.map((res) => asAdapter(res).status).filter((status) => status === 'Granted')).toHaveLength(1);
  });

  it('v1 sends mf-trace-id rds-<guid>: it comes back in the header', async () => {
    await totpUser(t, accountId, 'ivan');
    const traceId = `rds-${randomUUID()}`;
    const res = await call('ra', firstStep('ivan', null), { traceId });
    asAdapter(res);
    expect(res.headers['mf-trace-id']).toBe(traceId);
  });

  it('the OpenVPN Access Server script: PascalCase {Identity, Ip}, then {Identity, Challenge, RequestId}', async () => {
    await totpUser(t, accountId, 'oleg');
    const first = await t.as(vpn).post('/access/requests/ra').send({ Identity: 'oleg', Ip: '203.0.113.9' });
    expect(first.status).toBe(200);
    expect(first.body.model).toMatchObject({ status: 'AwaitingAuthentication', id: expect.any(String) });
    const second = await t
      .as(vpn)
      .post('/access/requests/ra/challenge')
      .send({ Identity: 'oleg', Challenge: totpCode(t), RequestId: first.body.model.id });
    expect(second.status).toBe(200);
    expect(second.body.model.status).toBe('Granted');
    expect((await row(first.body.model.id)).ip).toBe('203.0.113.9');
  });

  it('bad credentials stay 401 and a throttled client 429: the two refusals the adapter reads as such', async () => {
    const attempt = () => t.http().post('/access/requests/ra').auth(vpn.apiKey, 'not-the-secret').send(firstStep('anyone', null));
    for (let n = 1; n <= 20; n += 1) expect(clientReading((await attempt()).status)).toBe('credentials');
    const throttled = await attempt();
    expect(clientReading(throttled.status)).toBe('throttled');
    expect(throttled.headers['retry-after']).toEqual(expect.any(String));
    t.clock.advance(61_000); // the throttle's window passes: nothing carries over to other tests
  });
});
