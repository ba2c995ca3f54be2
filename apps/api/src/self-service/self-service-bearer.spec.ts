import { AccountId } from '@twofold/domain';
import { basicAuthorization, newResource } from '@twofold/persistence/testing';
import { decodeJwt, SignJWT } from 'jose';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { accessPageToken } from '../tokens/tokens.testing';

/**
 * The self-service portals' Bearer calls take an access token the service issued: `aud` names the
 * resource and so the account, `sub` the user, and the token must be one the service granted.
 */
describe('self-service: Bearer authentication by our own access tokens', () => {
  let t: TestApp;
  let a: { accountId: AccountId; authorization: string; resource: Awaited<ReturnType<typeof newResource>> };
  let b: { accountId: AccountId; authorization: string; resource: Awaited<ReturnType<typeof newResource>> };

  beforeAll(async () => {
    t = await startTestApp();
    const accountA = await t.newAccount({ name: 'A' });
    const accountB = await t.newAccount({ name: 'B' });
    a = {
      accountId: accountA.account.id,
      authorization: accountA.authorization,
      resource: await t.newResource(accountA.account.id, 'Portal A'),
    };
    b = {
      accountId: accountB.account.id,
      authorization: accountB.authorization,
      resource: await t.newResource(accountB.account.id, 'Portal B'),
    };
  });
  afterAll(() => t.close());

  const profile = (token: string) => t.http().get('/self-service').set('Authorization', `Bearer ${token}`);

  it('answers the profile of the token holder: the user of its `sub`, in its own account', async () => {
    const token = await accessPageToken(t, a.resource.authorization, 'alice');
    const res = await profile(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: null, model: { identity: 'alice', id: expect.any(String) } });
    expect(res.body.model.totpAuthenticators).toHaveLength(1);
    expect(res.body.model.policy).toMatchObject({ allResourcesPermitted: true, permittedResources: [] });
  });

  it('takes an RS256 token of a JwtRS256 resource, verified with the published key', async () => {
    const rs = await newResource(t.db, t.cipher, a.accountId, 'Portal RS', { tokenFormat: 'JwtRS256' });
    const token = await accessPageToken(t, rs.authorization, 'rita');
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg).toBe('RS256');
    expect((await profile(token)).body.model.identity).toBe('rita');
  });

  it('401 without a token, with Basic credentials, with garbage or an expired token', async () => {
    const token = await accessPageToken(t, a.resource.authorization, 'bob');
    expect((await t.http().get('/self-service')).status).toBe(401);
    expect((await t.as(a.resource).get('/self-service')).status).toBe(401);
    expect((await profile('not.a.token')).status).toBe(401);
    expect((await profile(`${token}x`)).status).toBe(401);
    t.clock.advance(60 * 60 * 1000 + 1000);
    try {
      const expired = await profile(token);
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ model: null, success: false });
    } finally {
      t.clock.advance(-(60 * 60 * 1000 + 1000));
    }
  });

  it("a token of resource A is refused on account B's data: its aud changed to B's key, or signed with A's secret", async () => {
    const token = await accessPageToken(t, a.resource.authorization, 'carol');
    const claims = decodeJwt(token);
    // the same grant, re-signed by whoever holds A's secret, claiming B's resource
    const forged = await new SignJWT({ ...claims, aud: b.resource.apiKey })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(a.resource.apiSecret));
    expect((await profile(forged)).status).toBe(401);
    // and B's secret cannot vouch for A's grant either: the jti is not a grant of B's resource
    const minted = await new SignJWT({ ...claims, aud: b.resource.apiKey })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(b.resource.apiSecret));
    expect((await profile(minted)).status).toBe(401);
  });

  it('a token the resource secret signed but the service never granted is 401', async () => {
    const minted = await new SignJWT({ sub: 'alice', jti: '00000000-0000-4000-8000-000000000000' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('http://twofold.test')
      .setAudience(a.resource.apiKey)
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode(a.resource.apiSecret));
    expect((await profile(minted)).status).toBe(401);
  });

  it("a deleted user's token gets 200 success:false UserNotRegistered", async () => {
    const token = await accessPageToken(t, a.resource.authorization, 'dave');
    const id = (await profile(token)).body.model.id;
    expect((await t.as(a).delete(`/users/${id}`)).status).toBe(200);
    const res = await profile(token);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain('UserNotRegistered');
    const enroll = await t.http().post('/self-service/create-enrollment-request').set('Authorization', `Bearer ${token}`);
    expect(enroll.body).toMatchObject({ success: false, message: 'UserNotRegistered' });
  });

  it('a token of a deleted resource is 401', async () => {
    const gone = await t.newResource(a.accountId, 'Gone');
    const token = await accessPageToken(t, gone.authorization, 'erin');
    await t.as(a).delete(`/resources/${gone.resource.id}`);
    expect((await profile(token)).status).toBe(401);
  });

  it('the Basic credentials of the portal do not open the Bearer calls, and a token does not open the Basic ones', async () => {
    const token = await accessPageToken(t, a.resource.authorization, 'frank');
    const basic = basicAuthorization(a.resource.apiKey, a.resource.apiSecret);
    expect((await t.as(basic).post('/self-service/create-enrollment-request')).status).toBe(401);
    const res = await t
      .http()
      .post('/self-service/user-authenticators')
      .set('Authorization', `Bearer ${token}`)
      .send({ identity: 'frank' });
    expect(res.status).toBe(401);
  });

  it('expired tokens, which a portal keeps sending for its users, do not throttle it; forged ones do (429 from the 21st)', async () => {
    // every test's failures come from one address: a minute of its own
    t.clock.advance(120_000);
    const token = await accessPageToken(t, a.resource.authorization, 'grace');
    t.clock.advance(60 * 60 * 1000 + 1000);
    for (let i = 0; i < 25; i += 1) expect((await profile(token)).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) statuses.push((await profile(`${token}${i}`)).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    t.clock.advance(120_000);
  });
});
