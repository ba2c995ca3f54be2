import { newResource } from '@twofold/persistence/testing';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { accessPageToken } from './tokens.testing';

describe('TOKEN_ISSUER is the iss of access tokens', () => {
  let t: TestApp;
  let hs: Awaited<ReturnType<typeof newResource>>;
  let rs: Awaited<ReturnType<typeof newResource>>;
  const issuer = 'https://idp.example.com/twofold/';

  beforeAll(async () => {
    t = await startTestApp({ tokenIssuer: issuer });
    const accountId = (await t.newAccount()).account.id;
    hs = await newResource(t.db, t.cipher, accountId, 'Wiki');
    rs = await newResource(t.db, t.cipher, accountId, 'Portal', { tokenFormat: 'JwtRS256' });
  });
  afterAll(() => t.close());

  it('signs the access page’s tokens of both formats with the configured issuer', async () => {
    const hsToken = await accessPageToken(t, hs.authorization, 'ann');
    await expect(
      jwtVerify(hsToken, new TextEncoder().encode(hs.apiSecret), { issuer, audience: hs.apiKey, currentDate: t.clock.now() }),
    ).resolves.toBeDefined();
    const rsToken = await accessPageToken(t, rs.authorization, 'bob');
    expect(decodeJwt(rsToken).iss).toBe(issuer);
  });

  it('refreshes only tokens of this issuer', async () => {
    const ours = await accessPageToken(t, hs.authorization, 'carol');
    const refreshed = await t.as(hs).post('/token/refresh').send({ AccessToken: ours });
    expect(refreshed.body.success).toBe(true);
    expect(decodeJwt(refreshed.body.model).iss).toBe(issuer);

    // a token as an instance with the default issuer (PUBLIC_URL) signs it is someone else's token here
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const other = await new SignJWT({ iss: 'http://twofold.test', aud: hs.apiKey, sub: 'carol', jti: 'j', iat: now, exp: now + 3600 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(hs.apiSecret));
    const refused = await t.as(hs).post('/token/refresh').send({ AccessToken: other });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ model: null, success: false });
  });
});
