import { AccountId, TOKEN_SIGNING_KEY_RETENTION_SECONDS } from '@twofold/domain';
import { AccessRequestsRepository, generateTokenSigningKey, ResourceEntity, TokenSigningKeysRepository } from '@twofold/persistence';
import { decidedAccessRequest, newResource, newUser } from '@twofold/persistence/testing';
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { AccessTokensService } from './access-tokens.service';
import { SIGNING_KEY_CACHE_TTL_MS } from './token-signing-keys.service';
import { accessPageToken } from './tokens.testing';

/** The refusals of POST /token/refresh, to the letter. */
const REFUSED = {
  missing: 'AccessToken is required.',
  malformed: 'The access token is malformed.',
  expired: 'The access token has expired.',
  format: "The access token is not in the resource's token format.",
  unsupported: 'The access token is not signed in a supported way.',
  signature: 'The access token signature is invalid.',
  notOurs: 'The access token was not issued by this service.',
  otherResource: 'The access token was not issued to this resource.',
  locked: 'The user of the access token is locked.',
  gone: 'The user of the access token no longer exists.',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /token/refresh', () => {
  let t: TestApp;
  let accountId: AccountId;
  let accountAuth: string;
  let hs: Awaited<ReturnType<typeof newResource>>;
  let rs: Awaited<ReturnType<typeof newResource>>;
  let otherHs: Awaited<ReturnType<typeof newResource>>;
  let otherRs: Awaited<ReturnType<typeof newResource>>;
  let signer: AccessTokensService;

  beforeAll(async () => {
    t = await startTestApp();
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    hs = await newResource(t.db, t.cipher, accountId, 'Directory');
    rs = await newResource(t.db, t.cipher, accountId, 'Portal', { tokenFormat: 'JwtRS256' });
    otherHs = await newResource(t.db, t.cipher, accountId, 'Other');
    otherRs = await newResource(t.db, t.cipher, accountId, 'Other portal', { tokenFormat: 'JwtRS256' });
    signer = t.app.get(AccessTokensService);
    for (const identity of ['ann', 'bob', 'locked', 'gone'])
      await newUser(t.db, accountId, identity, { now: t.clock.now(), locked: identity === 'locked' });
  });
  afterAll(() => t.close());

  const refresh = (resource: { authorization: string }, body: unknown) =>
    t
      .as(resource)
      .post('/token/refresh')
      .send(body as object);
  /** a Granted access request of the resource, recorded now as the access page records it */
  const grant = async (resource: { resource: ResourceEntity }, identity: string, claims: Record<string, unknown>, bypassed = false) => {
    const user = await t.db.manager().query(`SELECT id FROM users WHERE account_id = $1 AND identity = $2`, [accountId, identity]);
    return new AccessRequestsRepository(t.db).insertDecided(accountId, {
      resourceId: resource.resource.id,
      channel: 'page',
      userId: user[0]?.id ?? null,
      identity,
      email: null,
      phone: null,
      language: 'en',
      claims,
      callbackAction: 'https://app.example/callback',
      callbackTarget: '_self',
      createdAt: t.clock.now(),
      status: 'Granted',
      failedAttempts: 0,
      grantedAt: t.clock.now(),
      authenticator: bypassed ? null : 'Totp',
      bypassed,
    });
  };
  /** a token as the access page signs it for a request it granted now */
  const issue = async (resource: { resource: ResourceEntity }, identity: string, claims: Record<string, unknown> = {}) => {
    const jti = await grant(resource, identity, claims);
    return signer.sign(resource.resource, { identity, jti, claims, now: t.clock.now(), amr: ['otp'] });
  };
  const hsVerify = (token: string, resource: { apiKey: string; apiSecret: string }) =>
    jwtVerify(token, new TextEncoder().encode(resource.apiSecret), {
      algorithms: ['HS256'],
      issuer: 'http://twofold.test',
      audience: resource.apiKey,
      currentDate: t.clock.now(),
    });
  const jwks = async () => createLocalJWKSet((await t.http().get('/.well-known/jwks.json')).body);
  const expectRefused = async (res: { status: number; body: unknown }, message: string) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: null, success: false, message });
  };

  it('gives a new token with the same sub and claims (JSON types kept), a new jti, iat and exp', async () => {
    const claims = { uid: 1001, grant_type: 'password', ratio: 0.5, admin: false, groups: ['a', 'b'], nested: { n: 1 }, none: null };
    const old = await issue(hs, 'ann', claims);
    const oldPayload = decodeJwt(old);
    t.clock.advance(20 * 60_000);

    const res = await refresh(hs, { AccessToken: old, Claims: { uid: 'overridden', role: 'admin' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ model: expect.any(String), success: true, message: null });
    const token: string = res.body.model;
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await hsVerify(token, hs);
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    expect(payload).toEqual({
      ...claims,
      iss: 'http://twofold.test',
      aud: hs.apiKey,
      sub: 'ann',
      jti: expect.stringMatching(UUID),
      amr: ['otp'],
      iat,
      exp: iat + 3600,
    });
    expect(Number.isInteger(payload['uid'])).toBe(true);
    expect(payload.jti).not.toBe(oldPayload.jti);
    expect(payload.iat).toBe((oldPayload.iat as number) + 20 * 60);

    // a refreshed token refreshes again, each time with a fresh jti
    const again = await refresh(hs, { accessToken: token });
    expect(again.body.success).toBe(true);
    expect(decodeJwt(again.body.model).jti).not.toBe(payload.jti);
  });

  it.each(['AccessToken', 'accessToken', 'ACCESSTOKEN', 'accesstoken'])('reads the key %p in any case', async (key) => {
    const res = await refresh(hs, { [key]: await issue(hs, 'ann') });
    expect(res.body.success).toBe(true);
  });

  it('refreshes the access page’s own token', async () => {
    const token = await accessPageToken(t, hs.authorization, 'carol', { uid: 42 });
    t.clock.advance(60_000);
    const res = await refresh(hs, { AccessToken: token });
    expect(res.body.success).toBe(true);
    const { payload } = await hsVerify(res.body.model, hs);
    expect(payload).toMatchObject({ sub: 'carol', uid: 42 });
    expect(payload.jti).not.toBe(decodeJwt(token).jti);
  });

  it('refreshes a JwtRS256 token into one signed with the active key, verifiable through the JWKS', async () => {
    const old = await issue(rs, 'bob', { uid: 7 });
    const res = await refresh(rs, { AccessToken: old });
    expect(res.body.success).toBe(true);
    const header = decodeProtectedHeader(res.body.model);
    expect(header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const { payload } = await jwtVerify(res.body.model, await jwks(), {
      algorithms: ['RS256'],
      issuer: 'http://twofold.test',
      audience: rs.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload).toMatchObject({ sub: 'bob', uid: 7 });
  });

  it('accepts a token of a retired key still in the JWKS, and signs the new one with the active key', async () => {
    const old = await issue(rs, 'bob');
    const oldKid = decodeProtectedHeader(old).kid;
    const now = t.clock.now();
    const key = await generateTokenSigningKey(t.cipher, now);
    await new TokenSigningKeysRepository(t.db).rotate(key, now, new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000));
    t.clock.advance(SIGNING_KEY_CACHE_TTL_MS);
    const res = await refresh(rs, { AccessToken: old });
    expect(res.body.success).toBe(true);
    expect(decodeProtectedHeader(res.body.model).kid).toBe(key.kid);
    expect(key.kid).not.toBe(oldKid);
  });

  it('refuses a token of the other format after a switch: a JwtHS256 token of a resource switched to JwtRS256 is never converted', async () => {
    const switching = await newResource(t.db, t.cipher, accountId, 'Switching');
    const old = await issue(switching, 'ann', { uid: 5 });
    const put = await t.as(accountAuth).put(`/resources/${switching.resource.id}`).send({ name: 'Switching', tokenFormat: 'JwtRS256' });
    expect(put.body.model.tokenFormat).toBe('JwtRS256');
    await expectRefused(await refresh(switching, { AccessToken: old }), REFUSED.format);
    // and an RS256 token of the service's key for a resource back on JwtHS256
    const back = await newResource(t.db, t.cipher, accountId, 'Back', { tokenFormat: 'JwtRS256' });
    const rsToken = await issue(back, 'ann');
    await t.as(accountAuth).put(`/resources/${back.resource.id}`).send({ name: 'Back', tokenFormat: 'JwtHS256' });
    await expectRefused(await refresh(back, { AccessToken: rsToken }), REFUSED.format);
  });

  describe('only tokens the service issued, for a grant it recorded', () => {
    /** what a resource's secret holder can sign by itself */
    const selfSigned = (resource: { apiKey: string; apiSecret: string }, payload: Record<string, unknown>) =>
      new SignJWT({
        iss: 'http://twofold.test',
        aud: resource.apiKey,
        iat: Math.floor(t.clock.now().getTime() / 1000),
        exp: Math.floor(t.clock.now().getTime() / 1000) + 3600,
        ...payload,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(resource.apiSecret));

    it('refuses an HS256 token signed with the secret of a JwtRS256 resource: no RS256 token comes back', async () => {
      // the attack: the resource's secret signs any sub, amr and claims; refresh must not turn it into a token of the service's key
      const forged = await selfSigned(rs, { sub: 'ann', amr: ['otp'], role: 'admin', jti: randomUUID() });
      const res = await refresh(rs, { AccessToken: forged });
      await expectRefused(res, REFUSED.format);
      expect(JSON.stringify(res.body)).not.toContain('eyJ');
    });

    it('refuses a self-signed HS256 token whose jti names no grant, or another resource’s grant', async () => {
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann', jti: randomUUID() }) }), REFUSED.notOurs);
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann' }) }), REFUSED.notOurs);
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann', jti: 'not-a-uuid' }) }), REFUSED.notOurs);
      const theirs = await grant(otherHs, 'ann', {});
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann', jti: theirs }) }), REFUSED.notOurs);
    });

    it('refuses a real grant’s jti under another sub, and a request that was not granted', async () => {
      const annGrant = await grant(hs, 'ann', {});
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'bob', jti: annGrant }) }), REFUSED.notOurs);
      const denied = await new AccessRequestsRepository(t.db).insertDecided(
        accountId,
        decidedAccessRequest({
          resourceId: hs.resource.id,
          channel: 'page',
          userId: null,
          identity: 'ann',
          createdAt: t.clock.now(),
          status: 'Denied',
          failedAttempts: 5,
        }),
      );
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann', jti: denied }) }), REFUSED.notOurs);
    });

    it('keeps the grant’s claims and amr, not the ones a self-signed token carries', async () => {
      const bypassGrant = await grant(hs, 'ann', { uid: 3 }, true);
      const forged = await selfSigned(hs, { sub: 'ann', jti: bypassGrant, amr: ['otp'], uid: 999, role: 'admin' });
      const res = await refresh(hs, { AccessToken: forged });
      expect(res.body.success).toBe(true);
      const { payload } = await hsVerify(res.body.model, hs);
      expect(payload['amr']).toEqual(['bypass']);
      expect(payload['uid']).toBe(3);
      expect(payload['role']).toBeUndefined();
    });

    it('refuses a grant whose token has expired, even presented in a token that says otherwise', async () => {
      const old = await grant(hs, 'ann', {});
      t.clock.advance(3600 * 1000);
      await expectRefused(await refresh(hs, { AccessToken: await selfSigned(hs, { sub: 'ann', jti: old }) }), REFUSED.notOurs);
    });

    it('follows a chain of refreshes, each new jti recorded, to the grant', async () => {
      let token = await issue(rs, 'bob', { uid: 11 });
      for (let round = 0; round < 3; round++) {
        t.clock.advance(50 * 60_000);
        const res = await refresh(rs, { AccessToken: token });
        expect(res.body.success).toBe(true);
        token = res.body.model;
        expect(decodeJwt(token)).toMatchObject({ sub: 'bob', uid: 11, amr: ['otp'] });
      }
    });
  });

  it('refuses an expired token with 200 success:false', async () => {
    const old = await issue(hs, 'ann');
    t.clock.advance(3600 * 1000 - 1000);
    expect((await refresh(hs, { AccessToken: old })).body.success).toBe(true);
    t.clock.advance(1000);
    await expectRefused(await refresh(hs, { AccessToken: old }), REFUSED.expired);
  });

  it("refuses another resource's token, HS256 or RS256 (the same RSA key signs them: the audience decides)", async () => {
    await expectRefused(await refresh(hs, { AccessToken: await issue(otherHs, 'ann') }), REFUSED.signature);
    await expectRefused(await refresh(rs, { AccessToken: await issue(otherRs, 'ann') }), REFUSED.otherResource);
    await expectRefused(await refresh(hs, { AccessToken: await issue(otherRs, 'ann') }), REFUSED.format);
    const foreign = await t.newAccount();
    const theirs = await newResource(t.db, t.cipher, foreign.account.id, 'Their portal', { tokenFormat: 'JwtRS256' });
    await expectRefused(await refresh(theirs, { AccessToken: await issue(rs, 'ann') }), REFUSED.otherResource);
  });

  it('refuses a token of another issuer, even signed with the right secret', async () => {
    const forged = await new SignJWT({ sub: 'ann', aud: hs.apiKey, iss: 'https://evil.example', jti: 'x', iat: 1, exp: 9_999_999_999 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(hs.apiSecret));
    await expectRefused(await refresh(hs, { AccessToken: forged }), REFUSED.otherResource);
  });

  it('refuses tampered tokens', async () => {
    const [header, payload, signature] = (await issue(hs, 'ann', { role: 'staff' })).split('.');
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'admin' })).toString(
      'base64url',
    );
    await expectRefused(await refresh(hs, { AccessToken: `${header}.${changed}.${signature}` }), REFUSED.signature);

    const [rsHeader, rsPayload, rsSignature] = (await issue(rs, 'ann')).split('.');
    const rsChanged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(rsPayload, 'base64url').toString()), sub: 'root' })).toString(
      'base64url',
    );
    await expectRefused(await refresh(rs, { AccessToken: `${rsHeader}.${rsChanged}.${rsSignature}` }), REFUSED.signature);
    // a kid we never published
    const unknownKid = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'not-ours' })).toString('base64url');
    await expectRefused(await refresh(rs, { AccessToken: `${unknownKid}.${rsPayload}.${rsSignature}` }), REFUSED.signature);
  });

  it('never accepts alg none nor an algorithm other than HS256 and RS256', async () => {
    const claims = {
      sub: 'ann',
      aud: hs.apiKey,
      iss: 'http://twofold.test',
      jti: 'x',
      iat: Math.floor(t.clock.now().getTime() / 1000),
      exp: 9_999_999_999,
    };
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    await expectRefused(
      await refresh(hs, { AccessToken: `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.` }),
      REFUSED.unsupported,
    );
    const hs512 = await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(hs.apiSecret.repeat(2)));
    await expectRefused(await refresh(hs, { AccessToken: hs512 }), REFUSED.unsupported);
  });

  it.each([
    ['no token', {}, REFUSED.missing],
    ['a null token', { AccessToken: null }, REFUSED.missing],
    ['an empty token', { AccessToken: '' }, REFUSED.missing],
    ['a garbage token', { AccessToken: 'garbage' }, REFUSED.malformed],
    ['three garbage parts', { AccessToken: 'a.b.c' }, REFUSED.malformed],
    ['a number', { AccessToken: 12345 }, REFUSED.malformed],
    ['an object', { AccessToken: { token: 'x' } }, REFUSED.malformed],
    ['a huge token', { AccessToken: `${'a'.repeat(40_000)}.b.c` }, REFUSED.malformed],
    ['an array body', ['x'], REFUSED.missing],
  ])('answers 200 success:false for %s, never echoing it', async (_name, body, message) => {
    const res = await refresh(hs, body);
    await expectRefused(res, message);
    expect(res.body.message.length).toBeLessThan(100);
    expect(res.body.message).not.toContain('garbage');
  });

  it('refuses the token of a user locked or deleted since', async () => {
    const lockedToken = await issue(hs, 'locked');
    await expectRefused(await refresh(hs, { AccessToken: lockedToken }), REFUSED.locked);
    const goneToken = await issue(hs, 'gone');
    await t.database.dataSource.query(`DELETE FROM users WHERE account_id = $1 AND identity = 'gone'`, [accountId]);
    await expectRefused(await refresh(hs, { AccessToken: goneToken }), REFUSED.gone);
  });

  it('needs the resource credentials: 401 without them or with the account key', async () => {
    const token = await issue(hs, 'ann');
    expect((await t.http().post('/token/refresh').send({ AccessToken: token })).status).toBe(401);
    expect((await t.as(accountAuth).post('/token/refresh').send({ AccessToken: token })).status).toBe(401);
    const wrong = `Basic ${Buffer.from(`${hs.apiKey}:wrong`).toString('base64')}`;
    const res = await t.as(wrong).post('/token/refresh').send({ AccessToken: token });
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).not.toContain(token);
  });
});
