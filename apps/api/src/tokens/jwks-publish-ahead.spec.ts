import { AccountId, TOKEN_SIGNING_KEY_RETENTION_SECONDS } from '@twofold/domain';
import { generateTokenSigningKey, TokenSigningKeysRepository } from '@twofold/persistence';
import { newResource } from '@twofold/persistence/testing';
import { decodeProtectedHeader } from 'jose';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { SIGNING_KEY_CACHE_TTL_MS } from './token-signing-keys.service';
import { accessPageToken } from './tokens.testing';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Self-service portals load the JWKS once per process: a rotation publishes the next key first and
 * signs with it only after the publish-ahead time, while the previous key goes on signing.
 */
describe('JWKS publish-ahead of a rotated signing key', () => {
  let t: TestApp;
  let accountId: AccountId;
  let rs: Awaited<ReturnType<typeof newResource>>;
  let users = 0;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.newAccount()).account.id;
    rs = await newResource(t.db, t.cipher, accountId, 'Portal', { tokenFormat: 'JwtRS256' });
  });
  afterAll(() => t.close());

  const kids = async () => ((await t.http().get('/.well-known/jwks.json')).body.keys as { kid: string }[]).map((key) => key.kid);
  const signedWith = async () => decodeProtectedHeader(await accessPageToken(t, rs.authorization, `user${++users}`)).kid;
  /** what `token-key rotate` does, published `aheadMs` before it signs */
  const rotate = async (aheadMs: number) => {
    const now = t.clock.now();
    const key = await generateTokenSigningKey(t.cipher, now);
    const forget = new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000);
    await new TokenSigningKeysRepository(t.db).rotate(key, now, forget, new Date(now.getTime() + aheadMs));
    return key.kid;
  };

  it('publishes the next key at once, signs with the old one until the time has come, then with the new one', async () => {
    const old = await signedWith();
    const next = await rotate(DAY_MS);
    t.clock.advance(SIGNING_KEY_CACHE_TTL_MS + 1000);
    expect(await kids()).toEqual(expect.arrayContaining([old, next]));
    // a portal started now sees the next key already, and still gets tokens of the old one
    expect(await signedWith()).toBe(old);
    t.clock.advance(DAY_MS - 60_000);
    expect(await signedWith()).toBe(old);
    t.clock.advance(60_000);
    expect(await signedWith()).toBe(next);
    // the old key stays published until the tokens it signed have expired
    expect(await kids()).toEqual(expect.arrayContaining([old, next]));
    t.clock.advance(TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000);
    expect(await kids()).toEqual([next]);
  });

  it('an emergency rotation signs at once and stops the keys published ahead', async () => {
    const current = await signedWith();
    const ahead = await rotate(DAY_MS);
    const emergency = await rotate(0);
    t.clock.advance(SIGNING_KEY_CACHE_TTL_MS + 1000);
    expect(await signedWith()).toBe(emergency);
    expect(await kids()).toEqual(expect.arrayContaining([current, ahead, emergency]));
    t.clock.advance(2 * DAY_MS);
    expect(await signedWith()).toBe(emergency);
  });
});
