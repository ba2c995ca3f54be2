import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import { decodeJwt } from 'jose';
import { hiddenInputs } from '../../test/clients/client-kit';
import { startTestApp, TestApp } from '../../test/testing/test-app';

const KEY = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/**
 * A portal's password reset and account unlock act on the directory on the strength of the token
 * alone. Whoever knows a login whose owner has no factor yet must not be able to enroll one on such a
 * request and reset that person's password; and a Bypass network must not skip the check.
 */
describe('self-service: reset and unlock never enroll and are never bypassed', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let portal: Awaited<ReturnType<TestApp['newResource']>>;
  const VISITOR = '203.0.113.7';

  beforeAll(async () => {
    t = await startTestApp({ trustedProxies: ['127.0.0.1', '::1'] });
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    portal = await t.newResource(accountId, 'Portal');
    await t.as(accountAuth).put('/settings/support-info').send({ adminName: 'IT desk', adminEmail: 'it@corp.example' });
  });
  afterAll(() => t.close());

  const start = (kind: 'start-reset-password' | 'start-unlock-user', identity: string, claims: object = {}) =>
    t.as(portal).post(`/self-service/${kind}`).send({ identity, callbackUrl: 'https://sspr.corp.example/cb', claims });
  const factorsOf = async (userId: string) =>
    (await t.database.dataSource.query(`SELECT kind FROM authenticators WHERE user_id = $1`, [userId])) as { kind: string }[];
  const requestCount = async () =>
    Number((await t.database.dataSource.query(`SELECT count(*) AS n FROM access_requests WHERE account_id = $1`, [accountId]))[0].n);
  const visit = (url: string) => t.browser().get(new URL(url).pathname).set('X-Forwarded-For', VISITOR);

  it('a user without a factor is refused with the support contact; no request is made, nothing is enrolled', async () => {
    const user = await newUser(t.db, accountId, 'no.factor', { now: t.clock.now() });
    const before = await requestCount();
    for (const kind of ['start-reset-password', 'start-unlock-user'] as const) {
      const res = await start(kind, 'no.factor');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, model: null });
      expect(res.body.message).toContain('IT desk, it@corp.example');
    }
    expect(await requestCount()).toBe(before);
    expect(await factorsOf(user.id)).toEqual([]);
  });

  it('an unknown identity is UserNotRegistered, and nobody is registered', async () => {
    const res = await start('start-reset-password', 'nobody.here');
    expect(res.body).toMatchObject({ success: false, message: 'UserNotRegistered' });
    const users = await t.database.dataSource.query(`SELECT 1 FROM users WHERE account_id = $1 AND identity = 'nobody.here'`, [accountId]);
    expect(users).toEqual([]);
  });

  it('a factor removed after the request was made: the page refuses and shows no enrollment', async () => {
    const user = await newUser(t.db, accountId, 'lost.factor', { now: t.clock.now() });
    const factor = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const res = await start('start-reset-password', 'lost.factor');
    expect(res.body.success).toBe(true);
    await t.database.dataSource.query(`DELETE FROM authenticators WHERE id = $1`, [factor.id]);
    const page = await visit(res.body.model.url);
    expect(page.text).not.toContain('otpauth://');
    expect(page.text).not.toContain('data-testid="secret"');
    expect(hiddenInputs(page.text).get('formToken')).toBeUndefined();
    expect(await factorsOf(user.id)).toEqual([]);
  });

  it('a factor removed after the request, the page opened from a Bypass network: not granted, nothing enrolled', async () => {
    const list = await t
      .as(accountAuth)
      .post('/ip-lists')
      .send({ name: 'Office 2', action: 'Bypass', ranges: [VISITOR] });
    try {
      const user = await newUser(t.db, accountId, 'bypass.lost', { now: t.clock.now() });
      const factor = await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
      const res = await start('start-unlock-user', 'bypass.lost');
      await t.database.dataSource.query(`DELETE FROM authenticators WHERE id = $1`, [factor.id]);
      const page = await visit(res.body.model.url);
      expect(page.text).not.toContain('name="accessToken"');
      expect(page.text).not.toContain('data-testid="secret"');
      expect(await factorsOf(user.id)).toEqual([]);
      const status = await t.database.dataSource.query(`SELECT status, bypassed FROM access_requests WHERE id = $1`, [
        new URL(res.body.model.url).pathname.split('/').pop(),
      ]);
      expect(status[0].bypassed).toBe(false);
      expect(status[0].status).not.toBe('Granted');
    } finally {
      await t.as(accountAuth).delete(`/ip-lists/${list.body.model.id}`);
    }
  });

  it('a deleted user: the page registers nobody and enrolls nothing', async () => {
    const user = await newUser(t.db, accountId, 'gone.user', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const res = await start('start-unlock-user', 'gone.user');
    await t.as(accountAuth).delete(`/users/${user.id}`);
    const page = await visit(res.body.model.url);
    expect(page.text).not.toContain('otpauth://');
    const users = await t.database.dataSource.query(`SELECT 1 FROM users WHERE account_id = $1 AND identity = 'gone.user'`, [accountId]);
    expect(users).toEqual([]);
  });

  it('from a Bypass network the page still asks for the code, and grants only on a right one', async () => {
    const list = await t
      .as(accountAuth)
      .post('/ip-lists')
      .send({ name: 'Office', action: 'Bypass', ranges: [VISITOR] });
    expect(list.status).toBe(201);
    try {
      const user = await newUser(t.db, accountId, 'in.office', { now: t.clock.now() });
      await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
      const res = await start('start-reset-password', 'in.office');
      const browser = t.browser();
      const path = new URL(res.body.model.url).pathname;
      const page = await browser.get(path).set('X-Forwarded-For', VISITOR);
      // not granted on sight: a code prompt
      expect(page.text).not.toContain('name="accessToken"');
      const formToken = hiddenInputs(page.text).get('formToken') as string;
      expect(formToken).toBeDefined();
      const wrong = await browser.post(path).set('X-Forwarded-For', VISITOR).type('form').send({ formToken, code: '000000' });
      expect(wrong.text).not.toContain('name="accessToken"');
      const code = generateTotp({ secret: KEY, time: t.clock.now().getTime() });
      const granted = await browser.post(path).set('X-Forwarded-For', VISITOR).type('form').send({ formToken, code });
      const token = hiddenInputs(granted.text).get('accessToken') as string;
      expect(decodeJwt(token)).toMatchObject({ sub: 'in.office', resetPassword: 'true', amr: ['otp'] });
      // and a sign-in from that network is still bypassed as before
      const signIn = await t
        .as(portal)
        .post('/access/requests')
        .send({ identity: 'in.office', callback: { action: 'https://sspr.corp.example/cb', target: '_self' } });
      const signInPage = await t.browser().get(new URL(signIn.body.model.url).pathname).set('X-Forwarded-For', VISITOR);
      expect(signInPage.text).toContain('name="accessToken"');
    } finally {
      await t.as(accountAuth).delete(`/ip-lists/${list.body.model.id}`);
    }
  });

  it("the purpose's claim is the service's: a reset never carries the unlock flag the portal sent", async () => {
    t.clock.advance(60_000);
    const user = await newUser(t.db, accountId, 'mixed.claims', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const res = await start('start-reset-password', 'mixed.claims', { unlockUser: 'true', resetPassword: 'false', rawUserName: 'mixed' });
    const browser = t.browser();
    const path = new URL(res.body.model.url).pathname;
    const page = await browser.get(path);
    const code = generateTotp({ secret: KEY, time: t.clock.now().getTime() });
    const granted = await browser
      .post(path)
      .type('form')
      .send({ formToken: hiddenInputs(page.text).get('formToken'), code });
    const claims = decodeJwt(hiddenInputs(granted.text).get('accessToken') as string);
    expect(claims).toMatchObject({ resetPassword: 'true', rawUserName: 'mixed' });
    expect(claims['unlockUser']).toBeUndefined();
  });

  it('a callbackUrl that is not an absolute http(s) URL is refused (200 success:false)', async () => {
    for (const callbackUrl of ['javascript:alert(1)', '/relative', null]) {
      const res = await t.as(portal).post('/self-service/start-reset-password').send({ identity: 'in.office', callbackUrl });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, message: 'callbackUrl must be an absolute http or https URL.' });
    }
  });
});

describe('self-service: reset, unlock and the login service count against the resource’s access-request rate', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('answers 429 once the resource made its requests of the minute, whichever call made them', async () => {
    t = await startTestApp({ accessRequestsPerMinute: 2 });
    // one licence: 4 a minute per licence is the limit here (the floor of 2 is less)
    const { account } = await t.newAccount({ licenses: 1 });
    const portal = await t.newResource(account.id, 'Portal');
    const user = await newUser(t.db, account.id, 'busy.user', { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, account.id, user.id, { kind: 'TotpToken', key: KEY, now: t.clock.now() });
    const reset = () =>
      t.as(portal).post('/self-service/start-reset-password').send({ identity: 'busy.user', callbackUrl: 'https://sspr.corp.example/cb' });
    for (let i = 0; i < 4; i += 1) expect((await reset()).status).toBe(200);
    const fifth = await reset();
    expect(fifth.status).toBe(429);
    expect(fifth.headers['retry-after']).toBeDefined();
    const login = await t
      .as(portal)
      .post('/idp/api/v1/login')
      .send({
        verifiedCredentials: { isAuthenticated: true, username: 'busy.user' },
        loginCompletedCallbackUrl: 'https://sspr.corp.example/cb',
      });
    expect(login.status).toBe(429);
  });
});
