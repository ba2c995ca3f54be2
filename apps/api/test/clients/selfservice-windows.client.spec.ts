import { AddressInfo } from 'node:net';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { basicAuthorization } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';
import { hiddenInputs } from './client-kit';
import { accessPagePost, portalModel, portalRefusal, portalVerifies, windowsJson } from './selfservice-portal-kit';

/**
 * The Windows self-service portal (MultifactorLab/MultiFactor.SelfService.Windows.Portal), each call
 * as its older releases send it: Newtonsoft PascalCase with nulls written, every path with a leading
 * slash appended to the configured API URL, `create-enrollment-request` with the JSON string `"{ }"`
 * as its body, DELETE through WebClient.UploadValues (a form content type and no body), and the
 * releases before the "my factors" page managing the authenticator app themselves (`totp/new`,
 * `totp`, `DELETE /self-service/{kind}/{id}`).
 */
describe('client: self-service portal, Windows (PascalCase with nulls)', () => {
  let t: TestApp;
  let baseUrl: string;
  let portal: { apiKey: string; basic: string };
  const secrets = new Map<string, string>();

  const json = (path: string, auth: string, body: unknown) =>
    t.as(auth).post(path).set('Content-Type', 'application/json').send(windowsJson(body));

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    const created = await t.as(account).post('/resources').send({ name: 'Portal', tokenFormat: 'JwtRS256' });
    portal = { apiKey: created.body.model.apiKey, basic: basicAuthorization(created.body.model.apiKey, created.body.model.apiSecret) };
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  async function signIn(identity: string): Promise<string> {
    const created = await json('/access/requests', portal.basic, {
      Identity: identity,
      Callback: { Action: 'https://sspr.corp.example/account/PostbackFromMfa', Target: '_self' },
      Name: null,
      Email: null,
      Phone: null,
      Claims: { rawUserName: identity },
      Language: 'en',
      GroupPolicyPreset: { SignUpGroups: null },
    });
    const { url } = portalModel<{ url: string }>(created.status, created.body);
    const path = new URL(url).pathname;
    const browser = t.browser();
    const page = await browser.get(path);
    const secret = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string;
    secrets.set(identity, secret);
    const code = generateTotp({ secret: parseBase32Key(secret), time: t.clock.now().getTime() });
    const granted = await browser
      .post(path)
      .type('form')
      .send({ code, formToken: hiddenInputs(page.text).get('formToken') });
    return hiddenInputs(granted.text).get('accessToken') as string;
  }

  const bearer = (token: string) => `Bearer ${token}`;

  it('F1: profile with the four lists and the kinds policy; "configure 2FA" with the JSON string "{ }" as body', async () => {
    const token = await signIn('CORP\\win.user');
    const res = await t.as(bearer(token)).get('/self-service');
    const profile = portalModel<Record<string, unknown>>(res.status, res.body);
    // the older releases count these lists: each one present, never null
    for (const name of ['totpAuthenticators', 'telegramAuthenticators', 'mobileAppAuthenticators', 'phoneAuthenticators'])
      expect(Array.isArray(profile[name])).toBe(true);
    expect(profile['policy']).toMatchObject({ totp: true, mobileApp: false, phone: false });

    const enrollment = await t
      .as(bearer(token))
      .post('/self-service/create-enrollment-request')
      .set('Content-Type', 'application/json')
      .send(windowsJson('{ }'));
    expect(portalModel<{ url: string }>(enrollment.status, enrollment.body).url).toContain('/access/my-factors/');

    const support = await t.as(portal.basic).get('/self-service/support-info');
    // nothing set yet: the model is still an object, its fields null
    expect(portalModel(support.status, support.body)).toEqual({ adminName: null, adminEmail: null, adminPhone: null });
  });

  it('refresh {AccessToken, Claims}: the refreshed token still opens the Bearer calls', async () => {
    const token = await signIn('CORP\\refresher');
    const refreshed = await json('/token/refresh', portal.basic, { AccessToken: token, Claims: null });
    const next = portalModel<string>(refreshed.status, refreshed.body);
    expect((await t.as(bearer(next)).get('/self-service')).body.model.identity).toBe('CORP\\refresher');
  });

  it('older releases: totp/new → totp {Key, Otp} adds the app; DELETE with an empty form removes one, never the last', async () => {
    const token = await signIn('CORP\\old.portal');
    const created = await t.as(bearer(token)).get('/self-service/totp/new');
    const { key, link } = portalModel<{ key: string; link: string }>(created.status, created.body);
    expect(link).toMatch(/^otpauth:\/\/totp\//);
    const secret = parseBase32Key(new URL(link).searchParams.get('secret') as string);
    expect(key).not.toContain(new URL(link).searchParams.get('secret'));
    t.clock.advance(30_000);
    const added = await json('/self-service/totp', bearer(token), {
      Key: key,
      Otp: generateTotp({ secret, time: t.clock.now().getTime() }),
    });
    const lists = portalModel<{ totpAuthenticators: { id: string }[] }>(added.status, added.body);
    expect(lists.totpAuthenticators).toHaveLength(2);

    const remove = (id: string) =>
      t.as(bearer(token)).delete(`/self-service/totp/${id}`).set('Content-Type', 'application/x-www-form-urlencoded').send('');
    const first = await remove(lists.totpAuthenticators[0].id);
    expect(first.status).toBe(200);
    expect(portalModel<{ totpAuthenticators: unknown[] }>(first.status, first.body).totpAuthenticators).toHaveLength(1);
    const last = await remove(lists.totpAuthenticators[1].id);
    expect(portalRefusal(last.status, last.body)).toBe('The last second factor cannot be removed.');
  });

  it('older releases: a sealed key that was tampered with, expired or issued to another user is refused', async () => {
    const alice = await signIn('CORP\\alice');
    const mallory = await signIn('CORP\\mallory');
    const issued = portalModel<{ key: string; link: string }>(200, (await t.as(bearer(alice)).get('/self-service/totp/new')).body);
    const secret = parseBase32Key(new URL(issued.link).searchParams.get('secret') as string);
    t.clock.advance(30_000);
    const code = () => generateTotp({ secret, time: t.clock.now().getTime() });
    // another user's key
    const foreign = await json('/self-service/totp', bearer(mallory), { Key: issued.key, Otp: code() });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ success: false, model: null });
    // tampered: one character of the sealed key changed
    const flipped = issued.key.slice(0, 20) + (issued.key[20] === 'A' ? 'B' : 'A') + issued.key.slice(21);
    expect((await json('/self-service/totp', bearer(alice), { Key: flipped, Otp: code() })).status).toBe(400);
    // a raw secret is not a key
    expect(
      (await json('/self-service/totp', bearer(alice), { Key: new URL(issued.link).searchParams.get('secret'), Otp: code() })).status,
    ).toBe(400);
    // expired
    t.clock.advance(11 * 60_000);
    const expired = await json('/self-service/totp', bearer(alice), { Key: issued.key, Otp: code() });
    expect(expired.status).not.toBe(200);
    const factors = await json('/self-service/user-authenticators', portal.basic, { Identity: 'CORP\\alice', Unused: null });
    expect(portalModel<{ totpAuthenticators: unknown[] }>(factors.status, factors.body).totpAuthenticators).toHaveLength(1);
  });

  it('reset password of an older release: PascalCase, NETBIOS\\user identity; the token carries resetPassword and rawUserName', async () => {
    await signIn('CORP\\forgetful');
    const start = await json('/self-service/start-reset-password', portal.basic, {
      Identity: 'CORP\\forgetful',
      CallbackUrl: 'https://sspr.corp.example/ForgottenPassword/Reset',
      Claims: { resetPassword: 'true', rawUserName: 'forgetful' },
    });
    const { url } = portalModel<{ url: string }>(start.status, start.body);
    t.clock.advance(30_000);
    const code = generateTotp({ secret: parseBase32Key(secrets.get('CORP\\forgetful') as string), time: t.clock.now().getTime() });
    const posted = await accessPagePost(t, url, code);
    const claims = await portalVerifies(baseUrl, posted.fields.get('accessToken') as string, portal.apiKey, t.clock.now());
    expect(claims).toMatchObject({ sub: 'CORP\\forgetful', resetPassword: 'true', rawUserName: 'forgetful' });
  });
});
