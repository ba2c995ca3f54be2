import { AccountId } from '@twofold/domain';
import { randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify } from 'jose';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, hiddenInputs, submitCodeOnPage, totpCode, totpUser, wrongTotpCode } from './client-kit';

/**
 * A directory server (MultiDirectory, Python/httpx), replayed as it calls us: its web
 * sign-in creates `POST /access/requests` with `claims {uid: <int>, grant_type}` and reads the
 * callback form field `accessToken` case-sensitively, then decodes the JWT (HS256, audience = key,
 * `int(uid)`); its LDAP bind calls `POST /access/requests/md` `{Identity, passCode, GroupPolicyPreset}`
 * and grants only on `model.status == "Granted"`, crashing on `model: null`; it refreshes tokens with
 * `POST /token/refresh {AccessToken}`; every call carries `mf-trace-id: md:<uuid>`. 401 means "key or
 * secret invalid" (its bind then skips the second factor), 403 "incorrect resource", 429 "quota".
 */
describe('client: directory server (md, accessToken, token refresh)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let directory: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    directory = await t.newResource(accountId, 'MultiDirectory');
  });
  afterAll(() => t.close());

  const call = (path: string, body: object, traceId = `md:${randomUUID()}`) =>
    t.as(directory).post(path).set('mf-trace-id', traceId).send(body);

  /** The directory's reading of an md answer: it indexes model.status and crashes on a null model. */
  function bindGranted(res: { status: number; body: { success: boolean; model: { status: string } | null } }): boolean {
    expect(clientReading(res.status)).toBe('answer');
    expect(res.body.model).not.toBeNull();
    return (res.body.model as { status: string }).status === 'Granted';
  }

  it('web sign-in: the page posts accessToken (this exact case) and the token keeps uid an integer', async () => {
    await totpUser(t, accountId, 'ldap.admin');
    const traceId = `md:${randomUUID()}`;
    const created = await call(
      '/access/requests',
      {
        identity: 'ldap.admin',
        claims: { uid: 1042, grant_type: 'multifactor' },
        callback: { action: 'https://md.corp.example/api/auth/mfa/callback', target: '_self' },
      },
      traceId,
    );
    expect(created.headers['mf-trace-id']).toBe(traceId);
    expect(created.body.success).toBe(true);
    const granted = await submitCodeOnPage(t, created.body.model.url, totpCode(t));
    const fields = hiddenInputs(granted.text);
    expect([...fields.keys()]).toEqual(['accessToken']);
    const token = fields.get('accessToken') as string;
    const { payload } = await jwtVerify(token, new TextEncoder().encode(directory.apiSecret), {
      algorithms: ['HS256'],
      audience: directory.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload['uid']).toBe(1042);
    expect(Number.isInteger(payload['uid'])).toBe(true);
    expect(payload['grant_type']).toBe('multifactor');
  });

  it('LDAP bind with a code: Granted; a wrong code, push (`m`) or an unknown identity: Denied with a model, never null', async () => {
    await totpUser(t, accountId, 'bind.user');
    t.clock.advance(30_000);
    expect(bindGranted(await call('/access/requests/md', { Identity: 'bind.user', passCode: totpCode(t), GroupPolicyPreset: {} }))).toBe(
      true,
    );
    expect(
      bindGranted(await call('/access/requests/md', { Identity: 'bind.user', passCode: wrongTotpCode(t), GroupPolicyPreset: {} })),
    ).toBe(false);
    const push = await call('/access/requests/md', { Identity: 'bind.user', passCode: 'm', GroupPolicyPreset: {} });
    expect(bindGranted(push)).toBe(false);
    expect(push.body).toMatchObject({ success: false, model: { status: 'Denied' } });
    const unknown = await call('/access/requests/md', { Identity: 'no.such.user', passCode: '123456', GroupPolicyPreset: {} });
    expect(bindGranted(unknown)).toBe(false);
    expect(unknown.body.message).toBe('UserNotRegistered');
    const [row] = await t.database.dataSource.query('SELECT channel FROM access_requests WHERE id = $1', [push.body.model.id]);
    expect(row.channel).toBe('md');
  });

  it('an older directory server reads only `success`: true exactly when Granted or awaiting', async () => {
    await totpUser(t, accountId, 'old.reader');
    expect((await call('/access/requests/md', { Identity: 'old.reader', passCode: totpCode(t) })).body.success).toBe(true);
    expect((await call('/access/requests/md', { Identity: 'old.reader', passCode: wrongTotpCode(t) })).body.success).toBe(false);
  });

  it('wrong credentials are 401 ("key or secret invalid"), never a status it reads as an outage', async () => {
    const res = await t
      .http()
      .post('/access/requests/md')
      .auth(directory.apiKey, 'wrong')
      .send({ Identity: 'bind.user', passCode: '123456' });
    expect(res.status).toBe(401);
  });

  it('token refresh: {AccessToken} gives a new token string with the same sub and claims and a new jti', async () => {
    await totpUser(t, accountId, 'refresher');
    const created = await call('/access/requests', {
      identity: 'refresher',
      claims: { uid: 7, grant_type: 'multifactor' },
      callback: { action: 'https://md.corp.example/cb', target: '_self' },
    });
    const token = hiddenInputs((await submitCodeOnPage(t, created.body.model.url, totpCode(t))).text).get('accessToken') as string;
    t.clock.advance(10 * 60_000);
    const refreshed = await call('/token/refresh', { AccessToken: token });
    expect(clientReading(refreshed.status)).toBe('answer');
    expect(refreshed.body).toMatchObject({ success: true, model: expect.any(String) });
    const { payload } = await jwtVerify(refreshed.body.model, new TextEncoder().encode(directory.apiSecret), {
      audience: directory.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload).toMatchObject({ sub: 'refresher', uid: 7, grant_type: 'multifactor' });
    expect(payload.jti).not.toBe(decodeJwt(token).jti);
    expect(payload.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    // an expired or foreign token: 200 success false, never a 4xx it reads as an outage
    t.clock.advance(2 * 3600_000);
    const expired = await call('/token/refresh', { AccessToken: token });
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ success: false, model: null, message: 'The access token has expired.' });
  });
});
