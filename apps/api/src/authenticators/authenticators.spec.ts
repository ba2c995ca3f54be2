import { AuthenticatorEntity, AuthenticatorsRepository, UsersRepository } from '@twofold/persistence';
import { startTestApp, TestApp, TEST_NOW } from '../../test/testing/test-app';
import { journalOfToday } from '../../test/testing/journal-of-today';

/** 20 bytes, the RFC 4226 test key */
const KEY_HEX = '3132333435363738393031323334353637383930';
const KEY_32_HEX = 'a1'.repeat(32);

describe('authenticators', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A fresh account with its own journal, and a way to add users to it. */
  async function setup() {
    const { account, authorization } = await t.newAccount();
    const users = new UsersRepository(t.db);
    const newUser = async (identity: string) =>
      (await users.insert(account.id, { identity, name: null, email: null, source: 'Api', createdAt: TEST_NOW })).id;
    const journal = (object?: string) => journalOfToday(t, authorization, object ? `object=${object}` : '');
    const api = t.as(authorization);
    const register = async (userId: string, type: string, body: object = { Name: 'Token', Key: KEY_HEX }) => {
      const res = await api.post(`/users/${userId}/authenticators/${type}`).send(body);
      expect(res.status).toBe(200);
      return res.body.model.id as string;
    };
    return { account, authorization, newUser, journal, api, register };
  }

  const row = (id: string) => t.database.dataSource.getRepository(AuthenticatorEntity).findOneByOrFail({ id });

  describe('POST /users/{id}/authenticators/{totptoken|hotptoken}', () => {
    it('registers a TOTP token: key encrypted at rest, never returned, journaled as User Update', async () => {
      const s = await setup();
      const userId = await s.newUser('alice');
      const res = await s.api
        .post(`/users/${userId}/authenticators/totptoken`)
        .send({ Name: 'Key fob', Key: KEY_HEX, PrivateId: 'C0FFEE01' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ model: { id: expect.any(String) }, success: true, message: 'Authenticator registered.' });
      expect(JSON.stringify(res.body).toLowerCase()).not.toContain(KEY_HEX);

      const stored = await row(res.body.model.id);
      expect(stored).toMatchObject({
        accountId: s.account.id,
        userId,
        kind: 'TotpToken',
        name: 'Key fob',
        algorithm: 'SHA1',
        digits: 6,
        hotpCounter: null,
        lastTimeStep: null,
      });
      const key = Buffer.from(KEY_HEX, 'hex');
      expect(stored.secretEnc).not.toBeNull();
      expect((stored.secretEnc as Buffer).includes(key)).toBe(false);
      expect((stored.secretEnc as Buffer).toString('latin1')).not.toContain(KEY_HEX);
      expect(t.cipher.decrypt('authenticator.secret', stored.secretEnc as Buffer).equals(key)).toBe(true);
      expect(t.cipher.decrypt('authenticator.private-id', stored.privateIdEnc as Buffer).toString('hex')).toBe('c0ffee01');
      // the raw column as PostgreSQL holds it
      const [raw] = await t.database.dataSource.query("SELECT encode(secret_enc, 'hex') AS hex FROM authenticators WHERE id = $1", [
        res.body.model.id,
      ]);
      expect(raw.hex).not.toContain(KEY_HEX);

      const [event] = await s.journal('User');
      expect(event).toMatchObject({ action: 'Update', success: true });
      expect(event.additionalFields).toMatchObject({
        UserId: userId,
        UserIdentity: 'alice',
        AuthenticatorKind: 'TotpToken',
        AuthenticatorId: res.body.model.id,
        AuthenticatorName: 'Key fob',
      });
      expect(JSON.stringify(event).toLowerCase()).not.toContain(KEY_HEX);
      expect(JSON.stringify(event).toLowerCase()).not.toContain('c0ffee01');
    });

    it('registers an HOTP token with camelCase keys, an algorithm, counter 0; type matched case-insensitively', async () => {
      const s = await setup();
      const userId = await s.newUser('bob');
      const res = await s.api.post(`/users/${userId}/authenticators/HotpToken`).send({
        name: 'Yubi',
        key: KEY_32_HEX.toUpperCase(),
        algorithm: 'SHA512',
      });
      expect(res.status).toBe(200);
      const stored = await row(res.body.model.id);
      expect(stored).toMatchObject({
        kind: 'HotpToken',
        name: 'Yubi',
        algorithm: 'SHA512',
        digits: 6,
        hotpCounter: '0',
        lastTimeStep: null,
        privateIdEnc: null,
      });
      expect(t.cipher.decrypt('authenticator.secret', stored.secretEnc as Buffer).toString('hex')).toBe(KEY_32_HEX);
      const sha256 = await s.api
        .post(`/users/${userId}/authenticators/hotptoken`)
        .send({ NAME: 'Other', KEY: KEY_HEX, ALGORITHM: 'sha-256' });
      expect(sha256.status).toBe(200);
      expect((await row(sha256.body.model.id)).algorithm).toBe('SHA256');
    });

    const notHex = 'Key must be hex-encoded (an even number of the digits 0-9, a-f).';
    const length = 'Key must be 16 to 64 bytes (32 to 128 hex digits).';
    it.each([
      ['shorter than 16 bytes', 'ab'.repeat(15), length],
      ['longer than 64 bytes', 'ab'.repeat(65), length],
      ['not hex', 'zz' + 'ab'.repeat(16), notHex],
      ['an odd number of digits', 'abc' + 'ab'.repeat(16), notHex],
      ['with a 0x prefix', '0x' + 'ab'.repeat(16), notHex],
    ])('answers 400 for a key %s and never echoes the key', async (_, key, message) => {
      const s = await setup();
      const userId = await s.newUser('carol');
      const res = await s.api.post(`/users/${userId}/authenticators/totptoken`).send({ Name: 'T', Key: key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ model: null, success: false, message, traceId: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain(key);
      expect(JSON.stringify(res.body)).not.toContain(key.slice(0, 16));
      const [event] = await s.journal('User');
      // the body is refused before the user is looked up: the event still names the path's user
      expect(event).toMatchObject({ action: 'Update', success: false, additionalFields: { UserId: userId } });
      expect(JSON.stringify(event)).not.toContain(key.slice(0, 16));
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({});
    });

    it('answers 400 for a missing or non-string key, a missing name, a bad PrivateId or algorithm', async () => {
      const s = await setup();
      const userId = await s.newUser('dave');
      const post = (body: object) => s.api.post(`/users/${userId}/authenticators/hotptoken`).send(body);
      expect((await post({ Name: 'T' })).status).toBe(400);
      expect((await post({ Name: 'T', Key: 1234 })).status).toBe(400);
      expect((await post({ Key: KEY_HEX })).status).toBe(400);
      expect((await post({ Name: '   ', Key: KEY_HEX })).status).toBe(400);
      expect((await post({ Name: 'T', Key: KEY_HEX, PrivateId: 'xyz' })).status).toBe(400);
      expect((await post({ Name: 'T', Key: KEY_HEX, Algorithm: 'MD5' })).status).toBe(400);
      expect((await s.api.post(`/users/${userId}/authenticators/hotptoken`).send([KEY_HEX])).status).toBe(400);
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({});
    });

    it('refuses SHA256 and SHA512 on a TOTP token', async () => {
      const s = await setup();
      const userId = await s.newUser('erin');
      for (const algorithm of ['SHA256', 'SHA512']) {
        const res = await s.api.post(`/users/${userId}/authenticators/totptoken`).send({ Name: 'T', Key: KEY_HEX, Algorithm: algorithm });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('A TOTP token uses SHA1.');
      }
    });

    it('registers only token kinds: another kind is 400, an unknown kind 404', async () => {
      const s = await setup();
      const userId = await s.newUser('frank');
      for (const type of ['totp', 'sms', 'telegram']) {
        expect((await s.api.post(`/users/${userId}/authenticators/${type}`).send({ Name: 'T', Key: KEY_HEX })).status).toBe(400);
      }
      expect((await s.api.post(`/users/${userId}/authenticators/yubikey`).send({ Name: 'T', Key: KEY_HEX })).status).toBe(404);
    });

    it("answers 404 for another account's user, an unknown user and a non-UUID id", async () => {
      const s = await setup();
      const other = await setup();
      const theirs = await other.newUser('mallory');
      const body = { Name: 'T', Key: KEY_HEX };
      expect((await s.api.post(`/users/${theirs}/authenticators/totptoken`).send(body)).status).toBe(404);
      expect((await s.api.post('/users/00000000-0000-4000-8000-000000000000/authenticators/totptoken').send(body)).status).toBe(404);
      expect((await s.api.post('/users/42/authenticators/totptoken').send(body)).status).toBe(404);
      expect((await other.api.get(`/users/${theirs}/authenticators`)).body.model).toEqual({});
    });
  });

  describe('GET /users/{id}/authenticators', () => {
    it('maps each present kind to its authenticators in a fixed kind order, oldest first', async () => {
      const s = await setup();
      const userId = await s.newUser('gina');
      const empty = await s.api.get(`/users/${userId}/authenticators`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ model: {}, success: true, message: null });

      const hotp = await s.register(userId, 'hotptoken', { Name: 'H', Key: KEY_HEX });
      t.clock.set(new Date(TEST_NOW.getTime() + 1000));
      const totp1 = await s.register(userId, 'totptoken', { Name: 'T1', Key: KEY_HEX });
      t.clock.set(new Date(TEST_NOW.getTime() + 2000));
      const totp2 = await s.register(userId, 'totptoken', { Name: 'T2', Key: KEY_HEX });
      t.clock.set(TEST_NOW);

      const res = await s.api.get(`/users/${userId}/authenticators`);
      expect(res.body).toEqual({
        model: {
          TotpToken: [
            { id: totp1, name: 'T1' },
            { id: totp2, name: 'T2' },
          ],
          HotpToken: [{ id: hotp, name: 'H' }],
        },
        success: true,
        message: null,
      });
      expect(Object.keys(res.body.model)).toEqual(['TotpToken', 'HotpToken']);
      expect(JSON.stringify(res.body).toLowerCase()).not.toContain(KEY_HEX);
      expect((await t.as(s).get(`/v1/users/${userId}/authenticators`)).body.model.HotpToken).toHaveLength(1);
    });

    it("answers 404 for another account's user and a non-UUID id, 401 without credentials", async () => {
      const s = await setup();
      const other = await setup();
      const theirs = await other.newUser('mallory');
      await other.register(theirs, 'totptoken');
      const res = await s.api.get(`/users/${theirs}/authenticators`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ model: null, success: false, message: 'User not found.', traceId: expect.any(String) });
      expect((await s.api.get('/users/not-a-uuid/authenticators')).status).toBe(404);
      expect((await t.http().get(`/users/${theirs}/authenticators`)).status).toBe(401);
    });
  });

  describe('PUT /users/{id}/authenticators/{type}/{authenticatorid}: rename', () => {
    it('renames with Name or name, journaled as User Update', async () => {
      const s = await setup();
      const userId = await s.newUser('hank');
      const id = await s.register(userId, 'totptoken', { Name: 'Old', Key: KEY_HEX });
      const res = await s.api.put(`/users/${userId}/authenticators/totptoken/${id}`).send({ Name: '  New  ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ model: null, success: true, message: 'Authenticator renamed.' });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ TotpToken: [{ id, name: 'New' }] });
      expect((await s.api.put(`/users/${userId}/authenticators/TOTPTOKEN/${id}`).send({ name: 'Newer' })).status).toBe(200);
      expect((await row(id)).name).toBe('Newer');

      const events = await s.journal('User');
      expect(events.map((e) => [e.action, e.success])).toEqual([
        ['Update', true],
        ['Update', true],
        ['Update', true],
      ]);
      expect(events[1].additionalFields).toMatchObject({
        UserId: userId,
        UserIdentity: 'hank',
        AuthenticatorId: id,
        AuthenticatorKind: 'TotpToken',
        AuthenticatorName: 'New',
        AuthenticatorPreviousName: 'Old',
      });
    });

    it('renames any kind, e.g. an app (Totp) authenticator', async () => {
      const s = await setup();
      const userId = await s.newUser('ivy');
      const app = await new AuthenticatorsRepository(t.db).insert(s.account.id, {
        userId,
        kind: 'Totp',
        name: 'Phone',
        secretEnc: t.cipher.encrypt('authenticator.secret', Buffer.from(KEY_HEX, 'hex')),
        privateIdEnc: null,
        algorithm: 'SHA1',
        digits: 6,
        hotpCounter: null,
        lastTimeStep: null,
        createdAt: TEST_NOW,
      });
      expect((await s.api.put(`/users/${userId}/authenticators/totp/${app.id}`).send({ Name: 'Work phone' })).status).toBe(200);
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ Totp: [{ id: app.id, name: 'Work phone' }] });
    });

    it('answers 400 for a missing or empty name, journaled as a failure', async () => {
      const s = await setup();
      const userId = await s.newUser('jack');
      const id = await s.register(userId, 'totptoken', { Name: 'Old', Key: KEY_HEX });
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/${id}`).send({})).status).toBe(400);
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/${id}`).send({ Name: '' })).status).toBe(400);
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/${id}`).send({ Name: 'x'.repeat(101) })).status).toBe(400);
      expect((await row(id)).name).toBe('Old');
      const events = await s.journal('User');
      expect(events.map((e) => e.success)).toEqual([true, false, false, false]);
    });

    it("answers 404 for a wrong kind, another user's or account's authenticator, unknown ids", async () => {
      const s = await setup();
      const other = await setup();
      const userId = await s.newUser('kim');
      const sibling = await s.newUser('lee');
      const id = await s.register(userId, 'totptoken');
      const theirUser = await other.newUser('mallory');
      const theirs = await other.register(theirUser, 'totptoken');
      const body = { Name: 'Renamed' };
      expect((await s.api.put(`/users/${userId}/authenticators/hotptoken/${id}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${userId}/authenticators/totp/${id}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${userId}/authenticators/nokind/${id}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${sibling}/authenticators/totptoken/${id}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/${theirs}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${theirUser}/authenticators/totptoken/${theirs}`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/123`).send(body)).status).toBe(404);
      expect((await s.api.put(`/users/${userId}/authenticators/totptoken/00000000-0000-4000-8000-000000000000`).send(body)).status).toBe(
        404,
      );
      expect((await row(id)).name).toBe('Token');
      expect((await row(theirs)).name).toBe('Token');
    });
  });

  describe('PUT /users/{id}/authenticators/{type}/{tokenid} with user: move', () => {
    it('moves a token to another user of the account, optionally renaming it; both lists show it', async () => {
      const s = await setup();
      const from = await s.newUser('mona');
      const to = await s.newUser('ned');
      const id = await s.register(from, 'hotptoken', { Name: 'Fob', Key: KEY_HEX });
      const res = await s.api.put(`/users/${from}/authenticators/hotptoken/${id}`).send({ user: to });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ model: null, success: true, message: 'Authenticator moved.' });
      expect((await s.api.get(`/users/${from}/authenticators`)).body.model).toEqual({});
      expect((await s.api.get(`/users/${to}/authenticators`)).body.model).toEqual({ HotpToken: [{ id, name: 'Fob' }] });

      // and back, PascalCase, with a new name
      expect((await s.api.put(`/users/${to}/authenticators/hotptoken/${id}`).send({ User: from, Name: 'Fob 2' })).status).toBe(200);
      expect((await s.api.get(`/users/${from}/authenticators`)).body.model).toEqual({ HotpToken: [{ id, name: 'Fob 2' }] });
      expect((await s.api.get(`/users/${to}/authenticators`)).body.model).toEqual({});
      const stored = await row(id);
      expect(t.cipher.decrypt('authenticator.secret', stored.secretEnc as Buffer).toString('hex')).toBe(KEY_HEX);

      const events = (await s.journal('User')).slice(1);
      expect(events.map((e) => [e.action, e.success])).toEqual([
        ['Update', true],
        ['Update', true],
      ]);
      expect(events[0].additionalFields).toMatchObject({
        UserId: from,
        UserIdentity: 'mona',
        AuthenticatorId: id,
        TargetUserId: to,
        TargetUserIdentity: 'ned',
      });
      expect(events[1].additionalFields).toMatchObject({ UserId: to, TargetUserId: from, AuthenticatorName: 'Fob 2' });
    });

    it('answers 404 for a target of another account or unknown, and leaves the token where it was', async () => {
      const s = await setup();
      const other = await setup();
      const from = await s.newUser('olga');
      const id = await s.register(from, 'totptoken');
      const theirUser = await other.newUser('mallory');
      for (const user of [theirUser, '00000000-0000-4000-8000-000000000000', 'nope']) {
        const res = await s.api.put(`/users/${from}/authenticators/totptoken/${id}`).send({ user, name: 'Stolen' });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('User not found.');
      }
      expect((await s.api.put(`/users/${from}/authenticators/totptoken/${id}`).send({ user: 12 })).status).toBe(400);
      expect((await s.api.put(`/users/${from}/authenticators/totptoken/${id}`).send({ user: '' })).status).toBe(400);
      expect(await row(id)).toMatchObject({ userId: from, name: 'Token' });
      expect((await other.api.get(`/users/${theirUser}/authenticators`)).body.model).toEqual({});
      const events = await s.journal('User');
      expect(events.slice(1).map((e) => e.success)).toEqual([false, false, false, false, false]);
    });

    it('moves only token kinds (400 for another kind) and only a token of the path user and kind (404)', async () => {
      const s = await setup();
      const other = await setup();
      const from = await s.newUser('pete');
      const to = await s.newUser('quinn');
      const id = await s.register(from, 'totptoken');
      expect((await s.api.put(`/users/${from}/authenticators/totp/${id}`).send({ user: to })).status).toBe(400);
      expect((await s.api.put(`/users/${from}/authenticators/hotptoken/${id}`).send({ user: to })).status).toBe(404);
      expect((await s.api.put(`/users/${to}/authenticators/totptoken/${id}`).send({ user: to })).status).toBe(404);
      const theirUser = await other.newUser('mallory');
      const theirs = await other.register(theirUser, 'totptoken');
      expect((await s.api.put(`/users/${theirUser}/authenticators/totptoken/${theirs}`).send({ user: to })).status).toBe(404);
      expect((await s.api.put(`/users/${from}/authenticators/totptoken/${theirs}`).send({ user: to })).status).toBe(404);
      expect((await row(theirs)).userId).toBe(theirUser);
      expect((await row(id)).userId).toBe(from);
    });
  });

  describe('PATCH /users/{id}/authenticators/{type}/{tokenId}: copy', () => {
    it('copies an HOTP token to each target with the same secret and its own replay state', async () => {
      const s = await setup();
      const source = await s.newUser('rita');
      const a = await s.newUser('sam');
      const b = await s.newUser('tess');
      const id = await s.register(source, 'hotptoken', { Name: 'Fob', Key: KEY_32_HEX, PrivateId: 'ab01', Algorithm: 'SHA256' });
      const repo = new AuthenticatorsRepository(t.db);
      expect(await repo.spend(s.account.id, { kind: 'hotp', ids: [id], counter: 4 })).toBe(true); // source now expects 5

      const res = await s.api.patch(`/users/${source}/authenticators/hotptoken/${id}`).send({ Users: [a, b, a.toUpperCase()] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        model: {
          copies: [
            { userId: a, id: expect.any(String) },
            { userId: b, id: expect.any(String) },
          ],
        },
        success: true,
        message: 'Authenticator copied.',
      });
      const [copyA, copyB] = res.body.model.copies.map((c: { id: string }) => c.id);
      expect(JSON.stringify(res.body).toLowerCase()).not.toContain(KEY_32_HEX);

      for (const [copyId, userId] of [
        [copyA, a],
        [copyB, b],
      ]) {
        const copy = await row(copyId);
        expect(copy).toMatchObject({
          userId,
          kind: 'HotpToken',
          name: 'Fob',
          algorithm: 'SHA256',
          digits: 6,
          hotpCounter: '5',
          lastTimeStep: null,
        });
        expect(t.cipher.decrypt('authenticator.secret', copy.secretEnc as Buffer).toString('hex')).toBe(KEY_32_HEX);
        expect(t.cipher.decrypt('authenticator.private-id', copy.privateIdEnc as Buffer).toString('hex')).toBe('ab01');
      }
      // the source keeps its token
      expect((await s.api.get(`/users/${source}/authenticators`)).body.model).toEqual({ HotpToken: [{ id, name: 'Fob' }] });
      expect((await s.api.get(`/users/${a}/authenticators`)).body.model).toEqual({ HotpToken: [{ id: copyA, name: 'Fob' }] });

      // independent from here on: a counter accepted on a copy is still open on the source and the other copy
      expect(await repo.spend(s.account.id, { kind: 'hotp', ids: [copyA], counter: 7 })).toBe(true);
      expect((await row(copyA)).hotpCounter).toBe('8');
      expect((await row(id)).hotpCounter).toBe('5');
      expect((await row(copyB)).hotpCounter).toBe('5');
      expect(await repo.spend(s.account.id, { kind: 'hotp', ids: [id], counter: 7 })).toBe(true);
      expect(await repo.spend(s.account.id, { kind: 'hotp', ids: [copyB], counter: 5 })).toBe(true);
      // a counter before the snapshot stays spent on the copy
      expect(await repo.spend(s.account.id, { kind: 'hotp', ids: [copyB], counter: 4 })).toBe(false);

      const events = await s.journal('User');
      const copyEvent = events[events.length - 1];
      expect(copyEvent).toMatchObject({ action: 'Update', success: true });
      expect(copyEvent.additionalFields).toMatchObject({
        UserId: source,
        UserIdentity: 'rita',
        AuthenticatorId: id,
        AuthenticatorKind: 'HotpToken',
        TargetUserIds: `${a},${b}`,
        TargetUserIdentities: 'sam,tess',
        CopyIds: `${copyA},${copyB}`,
      });
      expect(JSON.stringify(copyEvent).toLowerCase()).not.toContain(KEY_32_HEX);
    });

    it('copies a TOTP token with a snapshot of its last time step, then independent', async () => {
      const s = await setup();
      const source = await s.newUser('uma');
      const target = await s.newUser('vic');
      const id = await s.register(source, 'totptoken');
      const repo = new AuthenticatorsRepository(t.db);
      expect(await repo.spend(s.account.id, { kind: 'totp', ids: [id], timeStep: 1000 })).toBe(true);
      const res = await s.api.patch(`/users/${source}/authenticators/TotpToken/${id}`).send({ users: [target] });
      expect(res.status).toBe(200);
      const copyId = res.body.model.copies[0].id;
      expect(await row(copyId)).toMatchObject({ kind: 'TotpToken', lastTimeStep: '1000', hotpCounter: null, algorithm: 'SHA1' });
      expect(await repo.spend(s.account.id, { kind: 'totp', ids: [copyId], timeStep: 1000 })).toBe(false);
      expect(await repo.spend(s.account.id, { kind: 'totp', ids: [copyId], timeStep: 1001 })).toBe(true);
      expect((await row(id)).lastTimeStep).toBe('1000');
      expect(await repo.spend(s.account.id, { kind: 'totp', ids: [id], timeStep: 1001 })).toBe(true);
    });

    it('answers 400 for an empty or malformed users list, or the source user itself; nothing copied', async () => {
      const s = await setup();
      const source = await s.newUser('walt');
      const target = await s.newUser('xena');
      const id = await s.register(source, 'hotptoken');
      const patch = (body: object) => s.api.patch(`/users/${source}/authenticators/hotptoken/${id}`).send(body);
      const empty = await patch({ users: [] });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({
        model: null,
        success: false,
        message: 'users must name at least one user.',
        traceId: expect.any(String),
      });
      expect((await patch({})).status).toBe(400);
      expect((await patch({ users: target })).status).toBe(400);
      expect((await patch({ users: [target, 5] })).status).toBe(400);
      expect((await patch({ users: [target, source] })).status).toBe(400);
      const tooMany = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      const limit = await patch({ users: tooMany });
      expect(limit.status).toBe(400);
      expect(limit.body.message).toBe('users may name at most 100 users.');
      expect((await s.api.get(`/users/${target}/authenticators`)).body.model).toEqual({});
      const events = await s.journal('User');
      expect(events.slice(1).map((e) => e.success)).toEqual([false, false, false, false, false, false]);
    });

    it('answers 404 when any target is of another account or unknown, and copies nothing', async () => {
      const s = await setup();
      const other = await setup();
      const source = await s.newUser('yuri');
      const target = await s.newUser('zoe');
      const theirUser = await other.newUser('mallory');
      const id = await s.register(source, 'totptoken');
      for (const users of [
        [target, theirUser],
        [target, '00000000-0000-4000-8000-000000000000'],
        [target, 'abc'],
      ]) {
        const res = await s.api.patch(`/users/${source}/authenticators/totptoken/${id}`).send({ users });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('User not found.');
      }
      expect((await s.api.get(`/users/${target}/authenticators`)).body.model).toEqual({});
      expect((await other.api.get(`/users/${theirUser}/authenticators`)).body.model).toEqual({});
      const count = await t.database.dataSource.getRepository(AuthenticatorEntity).countBy({ accountId: s.account.id });
      expect(count).toBe(1);
    });

    it("copies only token kinds, and only the path user's token of that kind", async () => {
      const s = await setup();
      const other = await setup();
      const source = await s.newUser('abe');
      const target = await s.newUser('bea');
      const id = await s.register(source, 'totptoken');
      expect((await s.api.patch(`/users/${source}/authenticators/totp/${id}`).send({ users: [target] })).status).toBe(400);
      expect((await s.api.patch(`/users/${source}/authenticators/hotptoken/${id}`).send({ users: [target] })).status).toBe(404);
      expect((await s.api.patch(`/users/${target}/authenticators/totptoken/${id}`).send({ users: [source] })).status).toBe(404);
      const theirUser = await other.newUser('mallory');
      const theirs = await other.register(theirUser, 'totptoken');
      expect((await s.api.patch(`/users/${theirUser}/authenticators/totptoken/${theirs}`).send({ users: [target] })).status).toBe(404);
      expect((await s.api.patch(`/users/${source}/authenticators/totptoken/${theirs}`).send({ users: [target] })).status).toBe(404);
      expect((await s.api.get(`/users/${target}/authenticators`)).body.model).toEqual({});
    });
  });

  describe('moves and copies in parallel', () => {
    it('serialize on the token and target rows: no deadlock, no error, a consistent end state', async () => {
      const s = await setup();
      const [a, b, c, d] = [await s.newUser('p-a'), await s.newUser('p-b'), await s.newUser('p-c'), await s.newUser('p-d')];
      const tokenA = await s.register(a, 'hotptoken');
      const tokenB = await s.register(b, 'hotptoken');
      const results = await Promise.all([
        s.api.patch(`/users/${a}/authenticators/hotptoken/${tokenA}`).send({ users: [c, d] }),
        s.api.patch(`/users/${b}/authenticators/hotptoken/${tokenB}`).send({ users: [d, c] }),
        s.api.put(`/users/${a}/authenticators/hotptoken/${tokenA}`).send({ user: d }),
        s.api.patch(`/users/${a}/authenticators/hotptoken/${tokenA}`).send({ users: [b] }),
      ]);
      expect(results.map((res) => res.status).slice(0, 3)).toEqual([200, 200, 200]);
      // the second copy of tokenA ran before the move (200) or after it (404: tokenA is d's by then)
      expect([200, 404]).toContain(results[3].status);
      expect((await row(tokenA)).userId).toBe(d);
      const list = (await s.api.get(`/users/${c}/authenticators`)).body.model;
      expect(list.HotpToken).toHaveLength(2);
    });

    it('a move to the user it already has changes only the name', async () => {
      const s = await setup();
      const userId = await s.newUser('same');
      const id = await s.register(userId, 'totptoken');
      const res = await s.api.put(`/users/${userId}/authenticators/totptoken/${id}`).send({ user: userId, name: 'Renamed' });
      expect(res.status).toBe(200);
      expect(await row(id)).toMatchObject({ userId, name: 'Renamed' });
    });
  });

  describe("Sms: the user's stored phone numbers", () => {
    it('lists each phone as an Sms authenticator, deletes one or all, refuses a rename', async () => {
      const s = await setup();
      const other = await setup();
      const userId = await s.newUser('fay');
      const users = new UsersRepository(t.db);
      await users.changePhones(s.account.id, userId, { add: ['+15550000002', '+15550000001'], remove: [] }, TEST_NOW);
      const token = await s.register(userId, 'totptoken');
      const list = await s.api.get(`/users/${userId}/authenticators`);
      expect(list.body.model).toEqual({
        TotpToken: [{ id: token, name: 'Token' }],
        Sms: [
          { id: expect.any(String), name: '+15550000001' },
          { id: expect.any(String), name: '+15550000002' },
        ],
      });
      const [first, second] = list.body.model.Sms.map((entry: { id: string }) => entry.id);

      expect((await s.api.put(`/users/${userId}/authenticators/sms/${first}`).send({ Name: 'Mobile' })).status).toBe(400);
      expect((await s.api.put(`/users/${userId}/authenticators/sms/${first}`).send({ user: userId })).status).toBe(400);
      expect((await s.api.patch(`/users/${userId}/authenticators/sms/${first}`).send({ users: [userId] })).status).toBe(400);
      expect((await s.api.delete(`/users/${userId}/authenticators/sms/${token}`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/totptoken/${first}`)).status).toBe(404);
      const theirUser = await other.newUser('mallory');
      expect((await other.api.delete(`/users/${theirUser}/authenticators/sms/${first}`)).status).toBe(404);
      expect((await other.api.delete(`/users/${userId}/authenticators/sms/${first}`)).status).toBe(404);

      const one = await s.api.delete(`/users/${userId}/authenticators/sms/${first}`);
      expect(one.status).toBe(200);
      expect(await users.phonesOf(s.account.id, userId)).toEqual(['+15550000002']);
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model.Sms).toEqual([{ id: second, name: '+15550000002' }]);

      await users.changePhones(s.account.id, userId, { add: ['+15550000003'], remove: [] }, TEST_NOW);
      const all = await s.api.delete(`/users/${userId}/authenticators/SMS`);
      expect(all.status).toBe(200);
      expect(all.body.message).toBe('2 authenticators deleted.');
      expect(await users.phonesOf(s.account.id, userId)).toEqual([]);
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ TotpToken: [{ id: token, name: 'Token' }] });

      const events = await s.journal('Authenticator');
      expect(events.map((e) => [e.action, e.success])).toEqual([
        ['Disable', false],
        ['Disable', false],
        ['Disable', true],
        ['Disable', true],
      ]);
      expect(events[2].additionalFields).toMatchObject({
        UserId: userId,
        UserIdentity: 'fay',
        AuthenticatorKind: 'Sms',
        AuthenticatorId: first,
      });
      expect(events[3].additionalFields).toMatchObject({ AuthenticatorKind: 'Sms', AuthenticatorCount: '2' });
      const journalText = JSON.stringify(events);
      expect(journalText).not.toContain('+1555');
    });
  });

  describe('DELETE', () => {
    it('deletes one authenticator, journaled as Authenticator Disable', async () => {
      const s = await setup();
      const userId = await s.newUser('cara');
      const keep = await s.register(userId, 'totptoken', { Name: 'Keep', Key: KEY_HEX });
      const gone = await s.register(userId, 'totptoken', { Name: 'Gone', Key: KEY_HEX });
      const res = await s.api.delete(`/users/${userId}/authenticators/totptoken/${gone}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ model: null, success: true, message: 'Authenticator deleted.' });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ TotpToken: [{ id: keep, name: 'Keep' }] });
      expect((await s.api.delete(`/users/${userId}/authenticators/totptoken/${gone}`)).status).toBe(404);

      const events = await s.journal('Authenticator');
      expect(events.map((e) => [e.object, e.action, e.success])).toEqual([
        ['Authenticator', 'Disable', true],
        ['Authenticator', 'Disable', false],
      ]);
      expect(events[0].additionalFields).toMatchObject({
        UserId: userId,
        UserIdentity: 'cara',
        AuthenticatorKind: 'TotpToken',
        AuthenticatorId: gone,
        AuthenticatorName: 'Gone',
      });
    });

    it('deletes every authenticator of one kind and leaves the other kinds', async () => {
      const s = await setup();
      const userId = await s.newUser('dina');
      const t1 = await s.register(userId, 'totptoken');
      const t2 = await s.register(userId, 'totptoken');
      const h = await s.register(userId, 'hotptoken');
      const res = await s.api.delete(`/users/${userId}/authenticators/TotpToken`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ model: null, success: true, message: '2 authenticators deleted.' });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ HotpToken: [{ id: h, name: 'Token' }] });
      // none left of that kind: still 200
      const again = await s.api.delete(`/users/${userId}/authenticators/totptoken`);
      expect(again.status).toBe(200);
      expect(again.body.message).toBe('0 authenticators deleted.');

      const events = await s.journal('Authenticator');
      expect(events.map((e) => [e.action, e.success])).toEqual([
        ['Disable', true],
        ['Disable', true],
      ]);
      expect(events[0].additionalFields).toMatchObject({
        UserId: userId,
        UserIdentity: 'dina',
        AuthenticatorKind: 'TotpToken',
        AuthenticatorCount: '2',
      });
      expect(events[0].additionalFields['AuthenticatorIds'].split(',').sort()).toEqual([t1, t2].sort());
      expect(events[1].additionalFields).toMatchObject({ AuthenticatorCount: '0' });
    });

    it("answers 404 for another account's user or authenticator, a wrong kind, unknown kinds and ids", async () => {
      const s = await setup();
      const other = await setup();
      const userId = await s.newUser('eve');
      const id = await s.register(userId, 'hotptoken');
      const theirUser = await other.newUser('mallory');
      const theirs = await other.register(theirUser, 'hotptoken');
      expect((await s.api.delete(`/users/${theirUser}/authenticators/hotptoken/${theirs}`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/hotptoken/${theirs}`)).status).toBe(404);
      expect((await s.api.delete(`/users/${theirUser}/authenticators/hotptoken`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/totptoken/${id}`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/fido/${id}`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/fido`)).status).toBe(404);
      expect((await s.api.delete(`/users/${userId}/authenticators/hotptoken/xyz`)).status).toBe(404);
      expect((await s.api.delete('/users/xyz/authenticators/hotptoken')).status).toBe(404);
      expect((await other.api.get(`/users/${theirUser}/authenticators`)).body.model).toEqual({
        HotpToken: [{ id: theirs, name: 'Token' }],
      });
      expect((await s.api.get(`/users/${userId}/authenticators`)).body.model).toEqual({ HotpToken: [{ id, name: 'Token' }] });
      const events = await s.journal('Authenticator');
      expect(events).toHaveLength(8);
      expect(events.every((e) => e.action === 'Disable' && !e.success)).toBe(true);
    });

    it('reads the path kind first, then the user, then the authenticator, and journals what a refused path names', async () => {
      const s = await setup();
      const userId = await s.newUser('gus');
      expect((await s.api.delete('/users/xyz/authenticators/fido/abc')).body.message).toBe('Authenticator kind not found.');
      expect((await s.api.delete('/users/xyz/authenticators/hotptoken/abc')).body.message).toBe('User not found.');
      expect((await s.api.delete(`/users/${userId}/authenticators/HOTPTOKEN/abc`)).body.message).toBe('Authenticator not found.');
      const events = await s.journal('Authenticator');
      expect(events.map((e) => e.additionalFields)).toEqual([
        { UserId: 'xyz', AuthenticatorId: 'abc' },
        { UserId: 'xyz', AuthenticatorKind: 'HotpToken', AuthenticatorId: 'abc' },
        { UserId: userId, AuthenticatorKind: 'HotpToken', AuthenticatorId: 'abc' },
      ]);
    });
  });
});
