import { AccountId } from '@twofold/domain';
import { jwtVerify } from 'jose';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, submitCodeOnPage, totpCode, totpUser } from './client-kit';

/**
 * The AD FS adapter and the Keycloak authenticator: `POST /access/requests` with
 * ``callback.action = javascript:window.parent.postMessage($`AccessToken`,'*')`` and target `_self`;
 * they open `model.url` in an iframe of their own page and take the token from a `message` event
 * (AD FS only from the access page's origin). A refusal must be 200 `success: false` (AD FS bypasses
 * the second factor on a non-2xx). Keycloak checks the JWT: HS256, base64url signature without
 * padding, `aud` equal to its key, `exp * 1000 > now`, `orig_user` equal to the user.
 * (The same flow runs in real Chromium in apps/api-e2e/src/access-page.browser.spec.ts.)
 */
describe('client: AD FS adapter and Keycloak authenticator (postMessage in an iframe)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let adfs: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    adfs = await t.newResource(accountId, 'AD FS');
  });
  afterAll(() => t.close());

  const POST_MESSAGE = "javascript:window.parent.postMessage($`AccessToken`,'*')";
  const create = (body: object) => t.as(adfs).post('/access/requests').send(body);
  const tokenOfPostMessagePage = (html: string) => /<input type="hidden" id="accessToken" value="([^"]+)"/.exec(html)?.[1];

  it('AD FS: the postMessage callback is accepted, every page of the request may be framed, and the granted page hands the token to the parent', async () => {
    await totpUser(t, accountId, 'CORP\\adfs.user');
    const created = await create({ Identity: 'CORP\\adfs.user', Callback: { Action: POST_MESSAGE, Target: '_self' } });
    expect(clientReading(created.status)).toBe('answer');
    expect(created.body).toMatchObject({ success: true, model: { url: expect.any(String) } });

    const page = await t.http().get(new URL(created.body.model.url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(page.headers['x-frame-options']).toBeUndefined();

    const granted = await submitCodeOnPage(t, created.body.model.url, totpCode(t));
    expect(granted.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(granted.text).toContain('window.parent.postMessage(token, origin)');
    expect(granted.text).not.toContain('<form method="post" action=');
    const token = tokenOfPostMessagePage(granted.text) as string;
    const { payload } = await jwtVerify(token, new TextEncoder().encode(adfs.apiSecret), {
      audience: adfs.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload.sub).toBe('CORP\\adfs.user');
  });

  it('Keycloak: lower-case body with claims {orig_user}; the token passes its checks', async () => {
    await totpUser(t, accountId, 'kc.user');
    const created = await create({
      identity: 'kc.user',
      claims: { orig_user: 'kc.user' },
      callback: { action: POST_MESSAGE, target: '_self' },
    });
    const granted = await submitCodeOnPage(t, created.body.model.url, totpCode(t));
    const token = tokenOfPostMessagePage(granted.text) as string;
    const [, , signature] = token.split('.');
    expect(signature).toMatch(/^[A-Za-z0-9_-]+$/); // base64url, no padding
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(adfs.apiSecret), {
      algorithms: ['HS256'],
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.aud).toBe(adfs.apiKey);
    expect((payload.exp as number) * 1000).toBeGreaterThan(t.clock.now().getTime());
    expect(payload['orig_user']).toBe('kc.user');
  });

  it('a javascript: action of any other shape is refused with 200 success:false, never a status AD FS bypasses on', async () => {
    for (const action of [
      "javascript:window.parent.postMessage(document.cookie,'*')",
      "javascript:window.parent.postMessage($`AccessToken`,'*');alert(1)",
      'javascript:alert(1)',
    ]) {
      const res = await create({ Identity: 'CORP\\adfs.user', Callback: { Action: action, Target: '_self' } });
      expect(clientReading(res.status)).toBe('answer');
      expect(res.body).toMatchObject({ model: null, success: false, message: 'Callback.Action must be an absolute http or https URL.' });
    }
  });

  it('a request meant for a full page (https callback, _self) refuses to be framed', async () => {
    const created = await create({ identity: 'kc.user', callback: { action: 'https://app.example/cb', target: '_self' } });
    const page = await t.http().get(new URL(created.body.model.url).pathname);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });
});
