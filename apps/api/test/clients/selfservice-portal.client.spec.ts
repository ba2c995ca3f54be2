import { AccountId } from '@twofold/domain';
import { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { basicAuthorization } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, hiddenInputs, submitCodeOnPage, totpCode, totpUser } from './client-kit';

/**
 * The self-service portals. The Linux portal sends a camelCase body: `identity` (maybe
 * `NETBIOS\user`), `callback`, `name`, `email`, `phone`, `claims`, any two-letter `language`,
 * `groupPolicyPreset {signUpGroups}`; it validates tokens against `GET /.well-known/jwks.json`
 * (RS256, audience = key, issuer not checked) and reads `sub`, `jti`, `rawUserName`. The Windows
 * portal sends PascalCase with nulls and refreshes with `POST /token/refresh {AccessToken, Claims}`.
 */
describe('client: self-service portals (RS256 tokens checked against the JWKS, refresh)', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let portal: { apiKey: string; apiSecret: string; authorization: string };
  let baseUrl: string;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    const created = await t.as(accountAuth).post('/resources').send({ name: 'Self-service', tokenFormat: 'JwtRS256' });
    expect(created.body.model.tokenFormat).toBe('JwtRS256');
    const { apiKey, apiSecret } = created.body.model;
    portal = { apiKey, apiSecret, authorization: basicAuthorization(apiKey, apiSecret) };
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const create = (body: object) => t.as(portal).post('/access/requests').send(body);

  it('Linux portal: camelCase body with NETBIOS\\user, any language, signUpGroups; its RS256 token verifies against the JWKS', async () => {
    await t.as(accountAuth).post('/groups').send({ name: 'Portal users' });
    const created = await create({
      identity: 'CORP\\new.hire',
      callback: { action: 'https://sspr.corp.example/mfa/callback', target: '_self' },
      name: 'New Hire',
      email: 'new.hire@corp.example',
      phone: null,
      claims: { rawUserName: 'CORP\\new.hire' },
      language: 'de',
      groupPolicyPreset: { signUpGroups: 'Portal users; No such group' },
    });
    expect(clientReading(created.status)).toBe('answer');
    expect(created.body.success).toBe(true);
    const path = new URL(created.body.model.url).pathname;
    const page = await t.http().get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('lang="ru"'); // `de` is not offered: the default, Russian

    // the page registered the user into the one sign-up group that exists
    const users = await t.as(accountAuth).get('/users?identity=CORP%5Cnew.hire');
    expect(users.body.model[0].groups.sort()).toEqual(['AllUsers', 'Portal users']);

    await totpUser(t, accountId, 'CORP\\enrolled');
    const signIn = await create({
      identity: 'CORP\\enrolled',
      callback: { action: 'https://sspr.corp.example/mfa/callback', target: '_self' },
      claims: { rawUserName: 'CORP\\enrolled' },
      language: 'en',
    });
    const token = hiddenInputs((await submitCodeOnPage(t, signIn.body.model.url, totpCode(t))).text).get('accessToken') as string;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const jwks = createRemoteJWKSet(new URL(`${baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, jwks, { audience: portal.apiKey, currentDate: t.clock.now() });
    expect(payload).toMatchObject({ sub: 'CORP\\enrolled', jti: signIn.body.model.id, rawUserName: 'CORP\\enrolled' });
    // nobody else's secret makes such a token: HS256 under the resource secret does not verify it
    await expect(jwtVerify(token, new TextEncoder().encode(portal.apiSecret), { currentDate: t.clock.now() })).rejects.toThrow();
  });

  it('Windows portal: PascalCase with nulls; refresh {AccessToken, Claims} keeps the claims (Claims ignored) in RS256', async () => {
    await totpUser(t, accountId, 'CORP\\win.user');
    const created = await create({
      Identity: 'CORP\\win.user',
      Callback: { Action: 'https://sspr.corp.example/cb', Target: '_self' },
      Name: null,
      Email: null,
      Phone: null,
      Claims: { rawUserName: 'CORP\\win.user' },
      Language: null,
      GroupPolicyPreset: null,
    });
    const token = hiddenInputs((await submitCodeOnPage(t, created.body.model.url, totpCode(t))).text).get('accessToken') as string;
    const refreshed = await t
      .as(portal)
      .post('/token/refresh')
      .send({ AccessToken: token, Claims: { rawUserName: 'someone.else', admin: true } });
    expect(refreshed.body).toMatchObject({ success: true, model: expect.any(String) });
    const jwks = createRemoteJWKSet(new URL(`${baseUrl}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(refreshed.body.model, jwks, { audience: portal.apiKey, currentDate: t.clock.now() });
    expect(payload).toMatchObject({ sub: 'CORP\\win.user', rawUserName: 'CORP\\win.user' });
    expect(payload['admin']).toBeUndefined();
  });
});
