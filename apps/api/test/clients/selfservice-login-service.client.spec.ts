import { AddressInfo } from 'node:net';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { basicAuthorization } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';
import { hiddenInputs } from './client-kit';
import { linuxJson, portalModel, portalVerifies } from './selfservice-portal-kit';

/** The portal's IdpApiResponse read: a non-null `data` is used whatever the envelope's `success`; else the call failed. */
function idpData<T = Record<string, unknown>>(body: unknown): T {
  const data = (body as { data?: unknown } | null)?.data;
  if (data === null || data === undefined) throw new Error(`no data: ${JSON.stringify(body)}`);
  return data as T;
}

/**
 * Current releases of the Linux self-service portal sign in through the vendor's login service
 * (`MultifactorIdpApi`): with its login-service URL set to `$PUBLIC_URL/idp/`, the portal posts
 * `api/v1/login` after checking the directory password itself, sends the user to the `redirectUrl`,
 * receives `accessToken` at its callback, confirms it with `api/v1/login-completed` (a form), then uses
 * the token as Bearer for `api/v1/users/load-profile`, the `/self-service` family and `api/v1/logout`.
 * Bodies camelCase without nulls; actions read as integers.
 */
describe('client: self-service portal, current releases through the login service (/idp/)', () => {
  let t: TestApp;
  let baseUrl: string;
  let portal: { apiKey: string; basic: string };

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    const created = await t.as(account).post('/resources').send({ name: 'Portal', tokenFormat: 'JwtRS256' });
    portal = { apiKey: created.body.model.apiKey, basic: basicAuthorization(created.body.model.apiKey, created.body.model.apiSecret) };
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const idp = (path: string) => `/idp/api/v1/${path}`;
  const loginBody = (username: string, credentials: Record<string, unknown> = {}) => ({
    verifiedCredentials: {
      isAuthenticated: true,
      isBypass: false,
      userMustChangePassword: false,
      passwordExpirationDate: null,
      displayName: 'Jane Doe',
      email: null,
      username,
      ...credentials,
    },
    samlSessionId: null,
    oidcSessionId: null,
    additionalClaims: { amr: 'pwd' },
    loginCompletedCallbackUrl: 'https://sspr.corp.example/account/PostbackFromMfa',
    settings: {
      preAuthenticationMethod: false,
      requiresUserPrincipalName: false,
      passwordManagementEnabled: true,
      needPrebindInfo: false,
      privacyMode: 'None',
      netBiosName: 'CORP',
      signUpGroups: null,
    },
  });
  const post = (path: string, body: unknown) =>
    t
      .as(portal.basic)
      .post(idp(path))
      .set('Accept-Language', 'en-US')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(linuxJson(body));

  /** The whole sign-in: login, the access page (a newcomer enrolls), the posted token. */
  async function signIn(username: string, credentials: Record<string, unknown> = {}) {
    const login = await post('login', loginBody(username, credentials));
    expect(login.status).toBe(200);
    const step = idpData<{ success: boolean; action: number; redirectUrl: string }>(login.body);
    expect(step).toMatchObject({ success: true, action: 2 });
    const path = new URL(step.redirectUrl).pathname;
    const browser = t.browser();
    const page = await browser.get(path);
    const secret = /data-testid="secret">([A-Z2-7]+)<\/code>/.exec(page.text)?.[1] as string;
    const code = generateTotp({ secret: parseBase32Key(secret), time: t.clock.now().getTime() });
    const granted = await browser
      .post(path)
      .type('form')
      .send({ code, formToken: hiddenInputs(page.text).get('formToken') });
    expect(granted.text).toContain('action="https://sspr.corp.example/account/PostbackFromMfa"');
    return hiddenInputs(granted.text).get('accessToken') as string;
  }

  it('login → access page → login-completed (form) → load-profile, the /self-service family and logout with the token as Bearer', async () => {
    const token = await signIn('jane');
    const claims = await portalVerifies(baseUrl, token, portal.apiKey, t.clock.now());
    expect(claims).toMatchObject({ sub: 'CORP\\jane', rawUserName: 'jane', amr: ['otp'] });

    const completed = await t.as(portal.basic).post(idp('login-completed')).type('form').send({ accessToken: token });
    expect(completed.status).toBe(200);
    const done = idpData<Record<string, unknown>>(completed.body);
    expect(done).toMatchObject({ success: true, action: 1, identity: 'CORP\\jane', rawUserName: 'jane', mustChangePassword: false });
    expect(new Date(done['tokenExpirationDate'] as string).getTime()).toBe(t.clock.now().getTime() + 3600_000);

    const profile = await t.http().get(idp('users/load-profile')).set('Authorization', `Bearer ${token}`);
    expect(profile.body).toMatchObject({ success: true, data: { identity: 'CORP\\jane', name: null } });
    const home = await t.http().get('/self-service').set('Authorization', `Bearer ${token}`);
    expect(portalModel<{ identity: string }>(home.status, home.body).identity).toBe('CORP\\jane');

    const logout = await t
      .http()
      .post(idp('logout'))
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(linuxJson({ reason: null }));
    expect(logout.body).toMatchObject({ success: true, data: { success: true } });
  });

  it('a directory refusal, a token of another resource or a forged one: data.success false, never a grant', async () => {
    const refused = await post('login', loginBody('mallory', { isAuthenticated: false }));
    expect(idpData(refused.body)).toMatchObject({ success: false, action: 0 });

    const account = await t.newAccount();
    const other = await t.newResource(account.account.id, 'Other');
    const token = await signIn('jack');
    const foreign = await t.as(other).post(idp('login-completed')).type('form').send({ accessToken: token });
    expect(idpData(foreign.body)).toMatchObject({ success: false, action: 0 });
    const forged = await t
      .as(portal.basic)
      .post(idp('login-completed'))
      .type('form')
      .send({ accessToken: `${token}x` });
    expect(idpData(forged.body)).toMatchObject({ success: false, action: 0 });
    expect((await t.http().get(idp('users/load-profile')).set('Authorization', `Bearer ${token}x`)).status).toBe(401);
  });

  it('a password the directory wants changed: login-completed answers ChangePassword', async () => {
    const token = await signIn('expired.pwd', { isAuthenticated: false, userMustChangePassword: true });
    const completed = await t.as(portal.basic).post(idp('login-completed')).type('form').send({ accessToken: token });
    expect(idpData(completed.body)).toMatchObject({ success: true, action: 4, mustChangePassword: true });
  });

  it('the pre-authentication flow (identity) and the SSO bypass calls', async () => {
    const identity = await post('identity', {
      username: 'pre.auth',
      loginCompletedCallbackUrl: 'https://sspr.corp.example/account/PostbackFromMfa',
      settings: { preAuthenticationMethod: true, netBiosName: 'CORP' },
    });
    expect(idpData(identity.body)).toMatchObject({ success: true, action: 1, redirectUrl: expect.stringContaining('/access/') });
    const token = await signIn('sso.user');
    for (const kind of ['saml', 'oidc']) {
      const res = await t
        .http()
        .post(idp(`${kind}/bypass`))
        .set('Authorization', `Bearer ${token}`)
        .send({ [`${kind}SessionId`]: 'x' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: false,
        data: null,
        message: expect.stringContaining('not a SAML or OpenID Connect identity provider'),
      });
    }
  });
});
