import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountId } from '@twofold/domain';
import { generateTotp } from '@twofold/otp';
import { openDatabase } from '@twofold/persistence';
import { newOtpAuthenticator, newUser } from '@twofold/persistence/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { AppConfig } from '../config/app-config';
import { journalOfToday } from '../../test/testing/journal-of-today';
import { heardEverythingAnnounced } from '../../test/testing/credentials-announcements';
import { countQueries } from '../../test/testing/query-counter';
import { asCaller, startTestApp, TEST_NOW, TestApp } from '../../test/testing/test-app';
import { accessPageToken } from '../tokens/tokens.testing';

const LOGIN_EMPTY = "Identity has no login under the identity format Login: nothing is left after the last '\\' and before the first '@'.";
const key = Buffer.from('3132333435363738393031323334353637383930', 'hex');

/** The payload of a JWT, unverified (the tokens' own specs verify them). */
function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

/**
 * The account's identity name format. `PUT/GET /settings/identity-format`, and every
 * identity the API receives normalized by it: a `CORP\Jane` request finds user `jane` under Login, and
 * is used as sent under AsIs.
 */
describe('identity name format', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** A fresh account with its API and one resource, under `format`. */
  async function account(format: 'AsIs' | 'Login') {
    const created = await t.newAccount();
    const resource = await t.newResource(created.account.id, 'VPN');
    if (format === 'Login') {
      const set = await t.as(created).put('/settings/identity-format').send({ format });
      expect(set.status).toBe(200);
    }
    return { accountId: created.account.id, authorization: created.authorization, resource: resource.authorization };
  }
  const userIdentities = async (authorization: string) =>
    ((await t.as(authorization).get('/users')).body.model as { identity: string }[]).map((u) => u.identity);
  async function userWithTotp(accountId: AccountId, identity: string) {
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await newOtpAuthenticator(t.db, t.cipher, accountId, user.id, { kind: 'TotpToken', key, now: t.clock.now() });
    return user;
  }
  const code = (stepsLater = 0) => generateTotp({ secret: key, time: t.clock.now().getTime() + stepsLater * 30_000 });

  describe('PUT and GET /settings/identity-format', () => {
    it('is AsIs by default; set, read back, journaled as Accounts ChangeNameFormat with both formats; another account keeps its own', async () => {
      const a = await t.newAccount();
      const b = await t.newAccount();
      const get = (auth: string) => t.as(auth).get('/settings/identity-format');
      expect((await get(a.authorization)).body).toEqual({ model: { format: 'AsIs' }, success: true, message: null });
      const set = await t.as(a).put('/settings/identity-format').send({ Format: 'login' });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ model: { format: 'Login' }, success: true, message: null });
      expect((await get(a.authorization)).body.model).toEqual({ format: 'Login' });
      expect((await get(b.authorization)).body.model).toEqual({ format: 'AsIs' });

      const refused = await t.as(a).put('/settings/identity-format').send({ format: 'Upn' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, message: 'format must be "AsIs" or "Login".' });
      expect((await get(a.authorization)).body.model).toEqual({ format: 'Login' });
      await t.as(a).put('/settings/identity-format').send({ format: 'AsIs' }).expect(200);

      const events = await journalOfToday(t, a.authorization, 'object=Accounts');
      expect(events.map((e) => [e.object, e.action, e.success, e.additionalFields])).toEqual([
        ['Accounts', 'ChangeNameFormat', true, { PreviousIdentityFormat: 'AsIs', IdentityFormat: 'Login' }],
        ['Accounts', 'ChangeNameFormat', false, {}],
        ['Accounts', 'ChangeNameFormat', true, { PreviousIdentityFormat: 'Login', IdentityFormat: 'AsIs' }],
      ]);
      expect(await journalOfToday(t, b.authorization, 'object=Accounts')).toEqual([]);
    });

    it('needs the account API key', async () => {
      const { resource } = await account('AsIs');
      expect((await t.as(resource).get('/settings/identity-format')).status).toBe(401);
    });
  });

  describe('the users API', () => {
    it('POST /users: CORP\\Jane is created as jane under Login, then conflicts with jane@corp.example; kept as sent under AsIs', async () => {
      const login = await account('Login');
      const created = await t.as(login).post('/users').send({ Identity: 'CORP\\Jane' });
      expect(created.status).toBe(200);
      expect(created.body.model.identity).toBe('jane');
      const again = await t.as(login).post('/users').send({ identity: 'jane@corp.example' });
      expect(again.status).toBe(409);
      expect(await userIdentities(login.authorization)).toEqual(['jane']);
      const journal = await journalOfToday(t, login.authorization, 'object=User&action=Create');
      expect(journal.map((e) => [e.success, e.additionalFields.UserIdentity])).toEqual([
        [true, 'jane'],
        [false, 'jane@corp.example'],
      ]);

      const asIs = await account('AsIs');
      for (const identity of ['CORP\\Jane', 'jane@corp.example']) {
        const res = await t.as(asIs).post('/users').send({ identity });
        expect(res.body.model.identity).toBe(identity);
      }
      expect((await userIdentities(asIs.authorization)).sort()).toEqual(['CORP\\Jane', 'jane@corp.example']);
    });

    it('PUT /users/{id} and PUT /v2/users/{id} store the new identity normalized', async () => {
      const login = await account('Login');
      const id = (await t.as(login).post('/users').send({ identity: 'bob' })).body.model.id;
      const v1 = await t.as(login).put(`/users/${id}`).send({ Identity: 'CORP\\Robert' });
      expect(v1.body.model.identity).toBe('robert');
      const v2 = await t
        .as(login)
        .put(`/v2/users/${id}`)
        .send({ Fields: [{ Name: 'Identity', Value: 'Rob@Corp.Example' }] });
      expect(v2.status).toBe(200);
      expect(v2.body.model.identity).toBe('rob');
      const asIs = await account('AsIs');
      const other = (await t.as(asIs).post('/users').send({ identity: 'bob' })).body.model.id;
      const kept = await t.as(asIs).put(`/users/${other}`).send({ Identity: 'CORP\\Robert' });
      expect(kept.body.model.identity).toBe('CORP\\Robert');
    });

    it('GET /users?identity=CORP\\Jane finds jane under Login, and nobody under AsIs', async () => {
      for (const format of ['Login', 'AsIs'] as const) {
        const { accountId, authorization } = await account(format);
        await newUser(t.db, accountId, 'jane', { now: t.clock.now() });
        const found = await t.as(authorization).get('/users').query({ identity: 'CORP\\Jane' });
        expect(found.status).toBe(200);
        expect(found.body.model.map((u: { identity: string }) => u.identity)).toEqual(format === 'Login' ? ['jane'] : []);
      }
    });

    it('an identity of which Login leaves nothing is refused with 400 and a clear message; AsIs takes it', async () => {
      const login = await account('Login');
      const id = (await t.as(login).post('/users').send({ identity: 'carol' })).body.model.id;
      const refusals = [
        await t.as(login).post('/users').send({ identity: 'CORP\\' }),
        await t.as(login).put(`/users/${id}`).send({ identity: '@corp.example' }),
        await t
          .as(login)
          .put(`/v2/users/${id}`)
          .send({ fields: [{ name: 'Identity', value: 'CORP\\@x' }] }),
      ];
      for (const res of refusals) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ success: false, message: LOGIN_EMPTY });
      }
      const filter = await t.as(login).get('/users').query({ identity: 'CORP\\' });
      expect(filter.status).toBe(400);
      expect(filter.body.message).toBe(LOGIN_EMPTY.replace(/^Identity/, 'identity'));
      expect(await userIdentities(login.authorization)).toEqual(['carol']);
      const asIs = await account('AsIs');
      expect((await t.as(asIs).post('/users').send({ identity: 'CORP\\' })).body.model.identity).toBe('CORP\\');
    });
  });

  describe('access requests', () => {
    it('POST /access/requests for CORP\\Jane is a request of jane: the page finds jane and registers nobody; sub is jane', async () => {
      const login = await account('Login');
      const created = await t.as(login.resource).post('/access/requests').send({ identity: 'CORP\\Jane' });
      expect(created.body).toMatchObject({ success: true });
      const polled = await t.as(login.resource).get(`/access/requests/${created.body.model.id}`);
      expect(polled.body.model.identity).toBe('jane');
      // the page registers the login, and the token names it
      const token = await accessPageToken(t, login.resource, 'jane@CORP.example');
      expect(jwtPayload(token).sub).toBe('jane');
      expect(await userIdentities(login.authorization)).toEqual(['jane']);
      const again = await accessPageToken(t, login.resource, 'CORP\\JANE').catch((error: Error) => error.message);
      // jane is enrolled now: the page asks for her code instead of enrolling someone new
      expect(again).toMatch(/no enrollment on the page/);
      expect(await userIdentities(login.authorization)).toEqual(['jane']);
    });

    it('under AsIs the request keeps its spelling, and the token names the stored user', async () => {
      const asIs = await account('AsIs');
      await newUser(t.db, asIs.accountId, 'jane', { now: t.clock.now() });
      const created = await t.as(asIs.resource).post('/access/requests').send({ identity: 'CORP\\Jane' });
      const polled = await t.as(asIs.resource).get(`/access/requests/${created.body.model.id}`);
      expect(polled.body.model.identity).toBe('CORP\\Jane');
      // `JANE` finds the stored `jane` (identities never differ by case alone): sub is the stored identity
      expect(jwtPayload(await accessPageToken(t, asIs.resource, 'JANE')).sub).toBe('jane');
      expect(await userIdentities(asIs.authorization)).toEqual(['jane']);
    });

    it('/ra and /md with a code: CORP\\Jane is jane under Login, unknown under AsIs', async () => {
      for (const format of ['Login', 'AsIs'] as const) {
        const { accountId, resource } = await account(format);
        await userWithTotp(accountId, 'jane');
        const ra = await t.as(resource).post('/access/requests/ra').send({ identity: 'CORP\\Jane', passCode: code() });
        const md = await t
          .as(resource)
          .post('/access/requests/md')
          .send({ Identity: 'jane@corp.example', PassCode: code(1) });
        if (format === 'Login') {
          expect(ra.body.model).toMatchObject({ status: 'Granted', identity: 'jane' });
          expect(md.body.model).toMatchObject({ status: 'Granted', identity: 'jane' });
        } else {
          expect(ra.body).toMatchObject({ success: false, model: { status: 'Denied', identity: 'CORP\\Jane' } });
          expect(md.body).toMatchObject({ success: false, model: { status: 'Denied', identity: 'jane@corp.example' } });
        }
      }
    });

    it('/ra then /ra/challenge with other spellings of one login under Login', async () => {
      const { accountId, resource } = await account('Login');
      await userWithTotp(accountId, 'jane');
      const first = await t.as(resource).post('/access/requests/ra').send({ identity: 'jane@corp.example' });
      expect(first.body.model).toMatchObject({ status: 'AwaitingAuthentication', identity: 'jane' });
      const challenge = await t
        .as(resource)
        .post('/access/requests/ra/challenge')
        .send({ Identity: 'CORP\\JANE', Challenge: code(), RequestId: first.body.model.id });
      expect(challenge.body.model).toMatchObject({ status: 'Granted', identity: 'jane' });
    });

    it('/ra/challenge under AsIs: CORP\\Jane is not the jane whose request it names (Denied, the request left waiting)', async () => {
      const { accountId, resource } = await account('AsIs');
      await userWithTotp(accountId, 'jane');
      const first = await t.as(resource).post('/access/requests/ra').send({ identity: 'jane' });
      expect(first.body.model.status).toBe('AwaitingAuthentication');
      const challenge = (identity: string) =>
        t.as(resource).post('/access/requests/ra/challenge').send({ identity, challenge: code(), requestId: first.body.model.id });
      expect((await challenge('CORP\\Jane')).body.model.status).toBe('Denied');
      expect((await challenge('JANE')).body.model.status).toBe('Granted');
    });

    it('a format set between the ra step and its challenge: the request recorded as sent is compared in the new format', async () => {
      const { accountId, authorization, resource } = await account('AsIs');
      await userWithTotp(accountId, 'CORP\\Jane');
      await userWithTotp(accountId, 'bob');
      const ra = (identity: string) => t.as(resource).post('/access/requests/ra').send({ identity });
      const first = await ra('CORP\\Jane');
      expect(first.body.model).toMatchObject({ status: 'AwaitingAuthentication', identity: 'CORP\\Jane' });
      await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      // heard once CORP\Bob is bob
      await eventually(async () => (await ra('CORP\\Bob')).body.model.status === 'AwaitingAuthentication');
      const challenge = await t
        .as(resource)
        .post('/access/requests/ra/challenge')
        .send({ identity: 'corp.example\\JANE', challenge: code(), requestId: first.body.model.id });
      expect(challenge.body.model).toMatchObject({ status: 'Granted', identity: 'CORP\\Jane' });
    });

    it('an identity of which Login leaves nothing: 200 success false on the access endpoints, no request', async () => {
      const { resource } = await account('Login');
      const create = await t.as(resource).post('/access/requests').send({ identity: 'CORP\\' });
      expect(create.status).toBe(200);
      expect(create.body).toMatchObject({ success: false, message: LOGIN_EMPTY });
      for (const path of ['/access/requests/ra', '/access/requests/md']) {
        const res = await t.as(resource).post(path).send({ identity: '@corp.example', passCode: '123456' });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, model: { status: 'Denied' } });
      }
      const challenge = await t
        .as(resource)
        .post('/access/requests/ra/challenge')
        .send({ identity: 'CORP\\', challenge: '123456', requestId: '00000000-0000-4000-8000-000000000000' });
      expect(challenge.status).toBe(200);
      expect(challenge.body).toMatchObject({ success: false, model: { status: 'Denied' } });
    });

    it('GET /access/requests?identity=CORP\\Jane lists the history of jane under Login', async () => {
      const login = await account('Login');
      const asIs = await account('AsIs');
      for (const { resource } of [login, asIs]) {
        for (const identity of ['CORP\\Jane', 'jane@corp.example', 'bob']) {
          await t.as(resource).post('/access/requests').send({ identity }).expect(200);
        }
      }
      t.clock.set(new Date(TEST_NOW.getTime() + 24 * 3600 * 1000));
      try {
        const history = (auth: string) => t.as(auth).get('/access/requests').query({ createdAt: '2026-05-20', identity: 'CORP\\Jane' });
        const mine = await history(login.authorization);
        expect(mine.status).toBe(200);
        expect(mine.body.model.data.map((r: { identity: string }) => r.identity)).toEqual(['jane', 'jane']);
        const theirs = await history(asIs.authorization);
        expect(theirs.body.model.data.map((r: { identity: string }) => r.identity)).toEqual(['CORP\\Jane']);
      } finally {
        t.clock.set(TEST_NOW);
      }
    });

    it('POST /token/refresh: a token issued as CORP\\Jane before the apply is refreshed for jane, with sub jane', async () => {
      const { authorization, resource } = await account('AsIs');
      const token = await accessPageToken(t, resource, 'CORP\\Jane');
      expect(jwtPayload(token).sub).toBe('CORP\\Jane');
      await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      await t.as(authorization).post('/settings/identity-format/apply').expect(200);
      const refreshed = await t.as(resource).post('/token/refresh').send({ AccessToken: token });
      expect(refreshed.body).toMatchObject({ success: true });
      expect(jwtPayload(refreshed.body.model).sub).toBe('jane');
    });
  });

  describe('a change of format', () => {
    it('takes effect on the next call of cached credentials, without a round trip more on the hot path', async () => {
      const { accountId, authorization, resource } = await account('AsIs');
      await userWithTotp(accountId, 'jane');
      const ra = (identity: string, passCode?: string) => t.as(resource).post('/access/requests/ra').send({ identity, passCode });
      // the resource's credentials are verified and cached under AsIs
      expect((await ra('CORP\\Jane')).body.model.status).toBe('Denied');
      await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
      // the announcement reaches this instance's listener asynchronously: the next calls see it
      await eventually(async () => (await ra('CORP\\Jane')).body.model.status === 'AwaitingAuthentication');
      // the change's own notification comes back later and drops the pair again: counted after it
      await heardEverythingAnnounced(t.app, t.database.dataSource);
      await ra('CORP\\Jane');
      expect(await countQueries(() => ra('CORP\\Jane'))).toBe(await countQueries(() => ra('jane')));
      // POST /access/requests stays one statement (round-trips.spec.ts) under Login
      const create = () => t.as(resource).post('/access/requests').send({ identity: 'CORP\\Jane' });
      await create();
      expect(await countQueries(create)).toBe(1);
    });

    it('reaches another API instance on the same database', async () => {
      const config = t.app.get<AppConfig>('twofold:app-config');
      const secondDataSource: DataSource = await openDatabase({
        url: t.database.url,
        poolSize: 5,
        applicationName: 'twofold-second-instance',
      });
      const second: NestFastifyApplication = await createApp({ config, dataSource: secondDataSource, clock: t.clock });
      await initApp(second);
      try {
        const { accountId, authorization, resource } = await account('AsIs');
        await userWithTotp(accountId, 'jane');
        const onSecond = (identity: string) =>
          asCaller(resource, () => request(second.getHttpServer()))
            .post('/access/requests/ra')
            .send({ identity });
        const usersOnSecond = () =>
          asCaller(authorization, () => request(second.getHttpServer()))
            .get('/users')
            .query({ identity: 'CORP\\Jane' });
        expect((await onSecond('CORP\\Jane')).body.model.status).toBe('Denied');
        expect((await usersOnSecond()).body.model).toEqual([]);
        await t.as(authorization).put('/settings/identity-format').send({ format: 'Login' }).expect(200);
        await eventually(async () => (await onSecond('CORP\\Jane')).body.model.status === 'AwaitingAuthentication');
        await eventually(async () => (await usersOnSecond()).body.model.length === 1);
      } finally {
        await second.close();
      }
    });
  });
});

/** Resolves once `check` holds: a change announced through PostgreSQL arrives asynchronously. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not within 10 s');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
