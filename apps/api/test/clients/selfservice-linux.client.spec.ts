import { AddressInfo } from 'node:net';
import { generateTotp, parseBase32Key } from '@twofold/otp';
import { basicAuthorization } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';
import { hiddenInputs } from './client-kit';
import { accessPagePost, linuxJson, portalModel, portalRefusal, portalVerifies } from './selfservice-portal-kit';

/** 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * The Linux self-service portal (MultifactorLab/multifactor-selfservice-portal), each call as it
 * sends it: System.Text.Json camelCase with nulls left out, `Content-Type: application/json;
 * charset=utf-8`, relative paths with and without a leading slash, `create-enrollment-request` with
 * no body at all; answers read case-sensitively through its ExecuteAsync (boolean `success`, a
 * non-null `model`). Flow F1: sign in through an access request, the profile, "configure 2FA".
 */
describe('client: self-service portal, Linux (camelCase without nulls)', () => {
  let t: TestApp;
  let baseUrl: string;
  let accountAuth: string;
  let portal: { apiKey: string; apiSecret: string; basic: string };

  const json = (method: 'post' | 'put', path: string, auth: string, body: unknown) =>
    t.as(auth)[method](path).set('Content-Type', 'application/json; charset=utf-8').send(linuxJson(body));

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountAuth = account.authorization;
    const created = await json('post', '/resources', accountAuth, { name: 'Self-service portal', tokenFormat: 'JwtRS256' });
    portal = { apiKey: created.body.model.apiKey, apiSecret: created.body.model.apiSecret, basic: '' };
    portal.basic = basicAuthorization(portal.apiKey, portal.apiSecret);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    // what the administrator sets for the portal's pages
    expect(
      (
        await json('put', '/settings/support-info', accountAuth, {
          adminName: 'IT desk',
          adminEmail: 'it@corp.example',
          adminPhone: '+1 555 0100',
        })
      ).status,
    ).toBe(200);
    const logo = await json('post', '/settings/showcase/logos', accountAuth, { name: 'mail.png', data: PNG.toString('base64') });
    expect(logo.body).toMatchObject({ success: true, model: { name: 'mail.png', contentType: 'image/png' } });
    const showcase = await json('put', '/settings/showcase', accountAuth, {
      enabled: true,
      showcaseLinks: [{ resourceId: '', url: 'https://mail.corp.example/', title: 'Mail <b>', image: 'mail.png', openInNewTab: true }],
    });
    expect(showcase.status).toBe(200);
  });
  afterAll(() => t.close());

  /** Sign-in as the portal makes it (releases ≤ 3.0.42): the page enrolls the newcomer; returns the posted token. */
  async function signIn(identity: string): Promise<string> {
    const created = await json('post', '/access/requests', portal.basic, {
      identity,
      callback: { action: 'https://sspr.corp.example/mfa/post-back', target: '_self' },
      name: 'Jane Doe',
      email: null,
      phone: null,
      claims: { rawUserName: identity },
      language: 'en',
      groupPolicyPreset: { signUpGroups: null },
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
    // the portal reads the posted field as `accessToken`
    const token = hiddenInputs(granted.text).get('accessToken') as string;
    expect(token).toBeDefined();
    return token;
  }

  it('F1: signs in, loads the profile with the token as Bearer, and opens "configure 2FA"', async () => {
    const token = await signIn('CORP\\jane');
    const claims = await portalVerifies(baseUrl, token, portal.apiKey, t.clock.now());
    expect(claims).toMatchObject({ sub: 'CORP\\jane', rawUserName: 'CORP\\jane' });

    // GetUserProfileAsync: GET "self-service", Bearer
    const res = await t.http().get('/self-service').set('Authorization', `Bearer ${token}`);
    const profile = portalModel<{
      id: string;
      identity: string;
      name: string;
      email?: string;
      policy: { allResourcesPermitted: boolean; permittedResources: string[] };
    }>(res.status, res.body);
    expect(typeof profile.id).toBe('string');
    expect(profile.identity).toBe('CORP\\jane');
    expect(profile.policy.allResourcesPermitted).toBe(true);
    expect(Array.isArray(profile.policy.permittedResources)).toBe(true);

    // GetUserAuthenticatorsAsync: POST "self-service/user-authenticators" {identity}, Basic
    const factors = await json('post', '/self-service/user-authenticators', portal.basic, { identity: 'CORP\\jane' });
    const lists = portalModel<Record<string, { id: string; label: string }[]>>(factors.status, factors.body);
    expect(lists['totpAuthenticators']).toHaveLength(1);
    for (const name of ['telegramAuthenticators', 'mobileAppAuthenticators', 'phoneAuthenticators']) expect(lists[name]).toEqual([]);

    // CreateEnrollmentRequest: POST "/self-service/create-enrollment-request", Bearer, no content at all
    const enrollment = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    expect(enrollment.status).toBe(200);
    const { url } = portalModel<{ url: string }>(enrollment.status, enrollment.body);
    expect(url).toMatch(/^http:\/\/twofold\.test\/access\/my-factors\/[A-Za-z0-9_-]{43}$/);

    // the token is the portal's session cookie: sent again until it expires
    expect((await t.http().get('/self-service').set('Authorization', `Bearer ${token}`)).body.success).toBe(true);
  });

  it('the access-denied page: GET "/self-service/support-info", Basic', async () => {
    const res = await t.as(portal.basic).get('/self-service/support-info');
    expect(portalModel(res.status, res.body)).toEqual({ adminName: 'IT desk', adminEmail: 'it@corp.example', adminPhone: '+1 555 0100' });
  });

  it('the showcase refresh: GET "self-service/settings/showcase" read at the top level, and a logo as bytes', async () => {
    const res = await t.as(portal.basic).get('/self-service/settings/showcase');
    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(true);
    expect(res.body.showcaseLinks).toEqual([
      { resourceId: '', url: 'https://mail.corp.example/', title: 'Mail <b>', image: 'mail.png', openInNewTab: true },
    ]);
    const logo = await t.as(portal.basic).get(`/self-service/settings/showcase/logo/${res.body.showcaseLinks[0].image}`);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(logo.body as Buffer, PNG)).toBe(0);
  });

  it('reset password: POST "self-service/start-reset-password"; the page posts a token carrying the claims to callbackUrl', async () => {
    await signIn('CORP\\reset.me');
    const start = await json('post', '/self-service/start-reset-password', portal.basic, {
      identity: 'CORP\\reset.me',
      callbackUrl: 'https://sspr.corp.example/ForgottenPassword/Change',
      claims: { resetPassword: 'true', rawUserName: 'reset.me' },
    });
    const { url } = portalModel<{ url: string }>(start.status, start.body);
    // the user has the app the sign-in enrolled: its code, one step later (the sign-in spent this one)
    t.clock.advance(30_000);
    const posted = await accessPagePost(t, url, await codeOf('CORP\\reset.me'));
    expect(posted.action).toBe('https://sspr.corp.example/ForgottenPassword/Change');
    const token = posted.fields.get('accessToken') as string;
    const claims = await portalVerifies(baseUrl, token, portal.apiKey, t.clock.now());
    expect(claims).toMatchObject({ sub: 'CORP\\reset.me', resetPassword: 'true', rawUserName: 'reset.me' });
    expect(claims['unlockUser']).toBeUndefined();
  });

  it('unlock: POST "self-service/start-unlock-user" with {unlockUser: "true"}', async () => {
    await signIn('CORP\\locked.out');
    const start = await json('post', '/self-service/start-unlock-user', portal.basic, {
      identity: 'CORP\\locked.out',
      callbackUrl: 'https://sspr.corp.example/Unlock/Complete',
      claims: { unlockUser: 'true' },
    });
    const { url } = portalModel<{ url: string }>(start.status, start.body);
    t.clock.advance(30_000);
    const posted = await accessPagePost(t, url, await codeOf('CORP\\locked.out'));
    const claims = await portalVerifies(baseUrl, posted.fields.get('accessToken') as string, portal.apiKey, t.clock.now());
    expect(claims).toMatchObject({ sub: 'CORP\\locked.out', unlockUser: 'true' });
  });

  it('SSO bypass: POST "access/bypass/saml" and "/oidc" are 200 success:false saying why', async () => {
    for (const kind of ['saml', 'oidc']) {
      const res = await json('post', `/access/bypass/${kind}`, portal.basic, {
        identity: 'CORP\\jane',
        [`${kind}SessionId`]: 'abc',
        claims: { name: 'Jane', email: 'jane@corp.example' },
      });
      expect(portalRefusal(res.status, res.body)).toMatch(/not .*identity provider/);
    }
  });

  /** The current code of the user's authenticator app, read from the key the sign-in page showed. */
  const secrets = new Map<string, string>();
  async function codeOf(identity: string): Promise<string> {
    const secret = secrets.get(identity);
    if (!secret) throw new Error(`no secret recorded for ${identity}`);
    return generateTotp({ secret: parseBase32Key(secret), time: t.clock.now().getTime() });
  }
});
