import { randomBytes } from 'node:crypto';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountId, ManualClock, TOKEN_SIGNING_KEY_RETENTION_SECONDS } from '@twofold/domain';
import { Db, generateTokenSigningKey, openDatabase, SecretCipher, TokenSigningKeysRepository } from '@twofold/persistence';
import { createTestDatabase, newResource, TestDatabase } from '@twofold/persistence/testing';
import { createLocalJWKSet, createRemoteJWKSet, decodeProtectedHeader, JSONWebKeySet, jwtVerify } from 'jose';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { startTestApp, TestApp, testConfig } from '../../test/testing/test-app';
import { SIGNING_KEY_CACHE_TTL_MS } from './token-signing-keys.service';
import { accessPageToken } from './tokens.testing';

describe('token formats, JWKS and key rotation', () => {
  let t: TestApp;
  let accountId: AccountId;
  let hs: Awaited<ReturnType<typeof newResource>>;
  let rs: Awaited<ReturnType<typeof newResource>>;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    hs = await newResource(t.db, t.cipher, accountId, 'Wiki');
    rs = await newResource(t.db, t.cipher, accountId, 'Portal', { tokenFormat: 'JwtRS256' });
  });
  afterAll(() => t.close());

  const jwks = async (): Promise<JSONWebKeySet & { keys: { kid: string }[] }> => {
    const res = await t.http().get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    return res.body;
  };
  const kids = async () => (await jwks()).keys.map((key) => key.kid);
  const activeKeys = () =>
    t.database.dataSource.query('SELECT kid FROM token_signing_keys WHERE retired_at IS NULL') as Promise<{ kid: string }[]>;
  /** what `token-key rotate` of the CLI does */
  const rotate = async () => {
    const now = t.clock.now();
    const key = await generateTokenSigningKey(t.cipher, now);
    await new TokenSigningKeysRepository(t.db).rotate(key, now, new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000));
    return key.kid;
  };
  let identities = 0;
  const pageToken = (resource: { authorization: string }, claims: Record<string, unknown> = {}) =>
    accessPageToken(t, resource.authorization, `user${++identities}`, claims);

  it('serves the public key generated at the first start, without credentials and without its private half', async () => {
    const res = await t.http().get('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['cache-control']).toBe('public, max-age=5');
    const [active] = await activeKeys();
    expect(res.body).toEqual({ keys: [{ kty: 'RSA', n: expect.any(String), e: 'AQAB', kid: active.kid, alg: 'RS256', use: 'sig' }] });
    expect(JSON.stringify(res.body)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
    // credentials are neither needed nor looked at
    expect((await t.http().get('/.well-known/jwks.json').set('Authorization', 'Basic d3Jvbmc6d3Jvbmc=')).status).toBe(200);
  });

  it('signs a JwtRS256 resource’s token from the access page with the RSA key, verifiable through the JWKS over HTTP', async () => {
    const token = await pageToken(rs, { uid: 1001, role: 'staff' });
    const header = decodeProtectedHeader(token);
    const [active] = await activeKeys();
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: active.kid });

    // what a self-service portal does: fetch the JWKS from the running API
    await t.app.listen(0, '127.0.0.1');
    const remote = createRemoteJWKSet(new URL(`${await t.app.getUrl()}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(token, remote, {
      algorithms: ['RS256'],
      issuer: 'http://twofold.test',
      audience: rs.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload).toMatchObject({ sub: `user${identities}`, uid: 1001, role: 'staff', aud: rs.apiKey, iss: 'http://twofold.test' });
    expect(payload.exp).toBe((payload.iat as number) + 3600);
    // the resource secret does not verify it: RS256 is not keyed by it
    await expect(jwtVerify(token, new TextEncoder().encode(rs.apiSecret))).rejects.toThrow();
  });

  it('keeps signing a JwtHS256 resource’s token with its secret, as before', async () => {
    const token = await pageToken(hs, { uid: 7 });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(hs.apiSecret), {
      algorithms: ['HS256'],
      issuer: 'http://twofold.test',
      audience: hs.apiKey,
      currentDate: t.clock.now(),
    });
    expect(payload).toMatchObject({ sub: `user${identities}`, uid: 7 });
    await expect(jwtVerify(token, createLocalJWKSet(await jwks()), { currentDate: t.clock.now() })).rejects.toThrow();
  });

  it('signs with a rotated key once its cache is older than the TTL, and publishes the old key until its tokens expire', async () => {
    const oldKid = (await activeKeys())[0].kid;
    const oldToken = await pageToken(rs);
    expect(decodeProtectedHeader(oldToken).kid).toBe(oldKid);

    const newKid = await rotate();
    const rotatedAt = t.clock.now();
    // the running API reads the keys again by its (injected) clock, not at once
    expect(decodeProtectedHeader(await pageToken(rs)).kid).toBe(oldKid);
    t.clock.advance(SIGNING_KEY_CACHE_TTL_MS);
    const newToken = await pageToken(rs);
    expect(decodeProtectedHeader(newToken).kid).toBe(newKid);
    expect(SIGNING_KEY_CACHE_TTL_MS).toBeLessThanOrEqual(10_000);

    // both keys are published, the active one first; tokens of either verify
    expect(await kids()).toEqual([newKid, oldKid]);
    const keySet = createLocalJWKSet(await jwks());
    const verifyOptions = { algorithms: ['RS256'], issuer: 'http://twofold.test', audience: rs.apiKey, currentDate: t.clock.now() };
    await expect(jwtVerify(oldToken, keySet, verifyOptions)).resolves.toBeDefined();
    await expect(jwtVerify(newToken, keySet, verifyOptions)).resolves.toBeDefined();

    // the old key stays while a token it signed may still be valid, then it is gone
    t.clock.set(new Date(rotatedAt.getTime() + TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000 - 1000));
    expect(await kids()).toEqual([newKid, oldKid]);
    expect(TOKEN_SIGNING_KEY_RETENTION_SECONDS).toBeGreaterThan(3600);
    t.clock.set(new Date(rotatedAt.getTime() + TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000));
    expect(await kids()).toEqual([newKid]);
    t.clock.advance(SIGNING_KEY_CACHE_TTL_MS);
    expect(await kids()).toEqual([newKid]);
  });
});

describe('the first signing key when two API instances start at once on one database', () => {
  let database: TestDatabase;
  let secondDataSource: DataSource;
  const apps: NestFastifyApplication[] = [];
  const cipher = new SecretCipher(randomBytes(32));
  const now = new Date('2026-05-20T10:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    secondDataSource = await openDatabase({ url: database.url, poolSize: 5, applicationName: 'twofold-second-instance' });
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await secondDataSource.destroy();
    await database.drop();
  });

  it('ends with exactly one active key, the one both publish', async () => {
    const config = testConfig(database.url);
    // two processes: their own pools and Nest containers, nothing shared but PostgreSQL
    const created = await Promise.all([
      createApp({ config, dataSource: database.dataSource, clock: new ManualClock(now) }),
      createApp({ config, dataSource: secondDataSource, clock: new ManualClock(now) }),
    ]);
    apps.push(...created);
    await Promise.all(created.map((app) => initApp(app)));

    const rows = await database.dataSource.query('SELECT kid, retired_at FROM token_signing_keys');
    expect(rows).toEqual([{ kid: expect.any(String), retired_at: null }]);
    for (const app of created) {
      const res = await request(app.getHttpServer()).get('/.well-known/jwks.json');
      expect(res.body.keys.map((key: { kid: string }) => key.kid)).toEqual([rows[0].kid]);
    }
  });

  it('inserts a first key only while none is active, one of two racing inserts winning without an error', async () => {
    const keys = new TokenSigningKeysRepository(new Db(database.dataSource));
    const [a, b] = await Promise.all([generateTokenSigningKey(cipher, now), generateTokenSigningKey(cipher, now)]);
    expect(await keys.insertIfNoneActive(a)).toBe(false);
    await database.dataSource.query('DELETE FROM token_signing_keys');
    expect((await Promise.all([keys.insertIfNoneActive(a), keys.insertIfNoneActive(b)])).sort()).toEqual([false, true]);
    expect(await database.dataSource.query('SELECT count(*)::int AS n FROM token_signing_keys')).toEqual([{ n: 1 }]);
  });
});
