import { Socket } from 'node:net';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ManualClock } from '@twofold/domain';
import {
  AccountsRepository,
  credentialsChangePayload,
  CREDENTIALS_CHANGED_CHANNEL,
  Db,
  generateApiCredentials,
  openDatabase,
  SecretCipher,
} from '@twofold/persistence';
import { basicAuthorization, createTestDatabase, newAccount } from '@twofold/persistence/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { AppConfig } from '../config/app-config';
import { heardEverythingAnnounced } from '../../test/testing/credentials-announcements';
import { countQueries } from '../../test/testing/query-counter';
import { asCaller, Credential, startTestApp, TEST_NOW, testConfig, TestApp } from '../../test/testing/test-app';
import { CredentialsChangeListener, credentialsProbePayload } from './credentials-change.listener';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/**
 * Verified credentials are cached, and a cached grant never outlives a disable, re-key or
 * delete made by any process. Two API instances on one database (own pools and Nest containers, as two
 * processes); the changes are made as the CLI and the other instance make them.
 */
describe('verified credentials cache across instances', () => {
  let t: TestApp;
  let second: NestFastifyApplication;
  let secondDataSource: DataSource;

  beforeAll(async () => {
    t = await startTestApp();
    const config = t.app.get<AppConfig>('twofold:app-config');
    secondDataSource = await openDatabase({ url: t.database.url, poolSize: 5, applicationName: 'twofold-second-instance' });
    second = await createApp({ config, dataSource: secondDataSource, clock: t.clock });
    await initApp(second);
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  const onSecond = () => request(second.getHttpServer());
  /** Resolves once `check` holds: the announcement travels through PostgreSQL, asynchronously. */
  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    const until = Date.now() + 10_000;
    while (!(await check())) {
      if (Date.now() > until) throw new Error(`not within 10 s: ${what}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const secondHeardEverythingAnnounced = () => heardEverythingAnnounced(second, t.database.dataSource);

  it('answers a known pair from memory: one round trip less than a first use', async () => {
    const known = await t.newAccount();
    const other = await t.newAccount();
    // the accounts' own announcements (API enabled) would empty the cache if they came after the first call
    await secondHeardEverythingAnnounced();
    expect((await asCaller(known, onSecond).get('/users/count')).status).toBe(200);
    const firstUse = await countQueries(() => asCaller(other, onSecond).get('/users/count').expect(200));
    const fromMemory = await countQueries(() => asCaller(known, onSecond).get('/users/count').expect(200));
    expect(fromMemory).toBe(firstUse - 1);
  });

  it('a disable by the operator (CLI) ends the cached grant on every instance', async () => {
    const { account, authorization } = await t.newAccount();
    expect((await asCaller(authorization, onSecond).get('/users/count')).status).toBe(200);
    await new AccountsRepository(new Db(t.database.dataSource)).setApi(account.id, { apiEnabled: false });
    await eventually(
      async () => (await asCaller(authorization, onSecond).get('/users/count')).status === 403,
      'the second instance refuses the disabled API',
    );
  });

  it('a new secret ends the old one on every instance', async () => {
    const { account, authorization, apiKey } = await t.newAccount();
    expect((await asCaller(authorization, onSecond).get('/users/count')).status).toBe(200);
    const rotated = generateApiCredentials();
    await new AccountsRepository(new Db(t.database.dataSource)).setApi(account.id, {
      apiEnabled: true,
      apiSecretEnc: t.cipher.encrypt('account.api-secret', rotated.secret),
    });
    await eventually(async () => (await asCaller(authorization, onSecond).get('/users/count')).status === 401, 'the old secret is refused');
    expect((await asCaller(basicAuthorization(apiKey, rotated.secret), onSecond).get('/users/count')).status).toBe(200);
  });

  it('a resource deleted through one instance is refused by the other', async () => {
    const { account, authorization } = await t.newAccount();
    const resource = await t.newResource(account.id, 'VPN');
    expect((await asCaller(resource, onSecond).post('/access/requests').send({ identity: 'u' })).status).toBe(200);
    expect((await t.as(authorization).delete(`/resources/${resource.resource.id}`)).status).toBe(200);
    await eventually(
      async () => (await asCaller(resource, onSecond).post('/access/requests').send({ identity: 'u' })).status === 401,
      'the deleted resource is refused',
    );
  });

  it("a change made through an instance is seen by that instance's very next call, before the change's notification comes back", async () => {
    const created = await t.newAccount();
    const cache = second.get(VerifiedCredentialsCache);
    await secondHeardEverythingAnnounced();
    expect((await asCaller(created, onSecond).get('/users/count')).status).toBe(200);
    expect(cache.size()).toBeGreaterThan(0);
    // the instance's listening connection reads nothing for a while: only the commit itself can tell the cache
    const listener = second.get(CredentialsChangeListener) as unknown as { client: { connection: { stream: Socket } } };
    const stream = listener.client.connection.stream;
    stream.pause();
    try {
      expect((await asCaller(created, onSecond).put('/settings/identity-format').send({ format: 'Login' })).status).toBe(200);
      const user = await asCaller(created, onSecond).post('/users').send({ identity: 'CORP\\Robert' });
      expect(user.body.model.identity).toBe('robert');
    } finally {
      stream.resume();
    }
  });

  it('trusts nothing from memory while its listening connection is lost, and listens again by itself', async () => {
    const cache = second.get(VerifiedCredentialsCache);
    const { authorization } = await t.newAccount();
    expect((await asCaller(authorization, onSecond).get('/users/count')).status).toBe(200);
    expect(cache.size()).toBeGreaterThan(0);
    await t.database.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'twofold-credentials-listener' AND datname = current_database()`,
    );
    await eventually(async () => cache.size() === 0, 'the cache is emptied');
    await eventually(async () => {
      await asCaller(authorization, onSecond).get('/users/count');
      return cache.size() > 0;
    }, 'the listener is back and the cache in use again');
  });
});

/**
 * Through a transaction pooler (PgBouncer in transaction mode, docs/operations/scaling.md) a LISTEN
 * succeeds, but the listening server connection goes back to the pooler's pool and the notifications
 * sent to it never reach the listener: the instance would trust a revoked pair for a minute. So a
 * listener trusts itself only once it has heard its own probe, announced through the pool as every
 * change is. A listener on another database (notifications are per database) hears nothing, exactly
 * as one behind a transaction pooler does; DATABASE_LISTEN_URL gives the listener a connection of its own.
 */
describe('the listener hears its own probe before the cache is used', () => {
  function logOf() {
    const written: string[] = [];
    return {
      destination: { write: (line: string) => void written.push(line) },
      messages: () => written.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? ''),
    };
  }

  /** An instance on a fresh database whose listener connects to `listenUrl(databaseUrl)`. */
  async function instance(listenUrl: (databaseUrl: string) => string, log = logOf()) {
    const database = await createTestDatabase();
    const clock = new ManualClock(TEST_NOW);
    const config = testConfig(database.url, { logLevel: 'warn', databaseListenUrl: listenUrl(database.url) });
    const app = await createApp({ config, dataSource: database.dataSource, clock, logDestination: log.destination });
    await initApp(app);
    const db = new Db(database.dataSource);
    const cipher = new SecretCipher(config.encryptionKey);
    return {
      app,
      log,
      newAccount: () => newAccount(db, cipher, { now: clock.now() }),
      as: (credential: Credential) => asCaller(credential, () => request(app.getHttpServer())),
      close: async () => {
        await app.close();
        await database.drop();
      },
    };
  }

  /** Queries of a first use of a pair, and of a use of a pair used before. */
  async function roundTrips(t: Awaited<ReturnType<typeof instance>>, cached: boolean) {
    const known = await t.newAccount();
    const other = await t.newAccount();
    const cache = t.app.get(VerifiedCredentialsCache);
    // the accounts' own announcements may still be on their way: a pair verified meanwhile is not kept
    const until = Date.now() + 10_000;
    do {
      expect((await t.as(known).get('/users/count')).status).toBe(200);
    } while (cached && cache.size() === 0 && Date.now() < until);
    const firstUse = await countQueries(() => t.as(other).get('/users/count').expect(200));
    const again = await countQueries(() => t.as(known).get('/users/count').expect(200));
    return { firstUse, again };
  }

  it('one that hears nothing keeps the cache off (every call verified against the database) and says why, once', async () => {
    const elsewhere = await createTestDatabase();
    const t = await instance(() => elsewhere.url);
    try {
      const { firstUse, again } = await roundTrips(t, false);
      expect(again).toBe(firstUse);
      expect(t.app.get(VerifiedCredentialsCache).size()).toBe(0);
      expect(t.log.messages().filter((msg) => msg.includes('credential changes are not heard'))).toHaveLength(1);
    } finally {
      await t.close();
      await elsewhere.drop();
    }
  }, 30_000);

  it('DATABASE_LISTEN_URL of the same database: heard there, so the cache is used', async () => {
    const t = await instance((url) => url);
    try {
      const { firstUse, again } = await roundTrips(t, true);
      expect(again).toBe(firstUse - 1);
      expect(t.log.messages().filter((msg) => msg.includes('credential changes are not heard'))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it("another instance's probe does not empty the cache (an instance starting costs the others nothing)", async () => {
    const t = await startTestApp();
    try {
      const { authorization } = await t.newAccount();
      const { account: unrelated } = await t.newAccount();
      const cache = t.app.get(VerifiedCredentialsCache);
      const until = Date.now() + 10_000;
      // the accounts' own announcements may still be on their way: a pair verified meanwhile is not kept
      do {
        expect((await t.as(authorization).get('/users/count')).status).toBe(200);
      } while (cache.size() === 0 && Date.now() < until);
      expect(cache.size()).toBe(1);
      const before = cache.generation();
      await t.database.dataSource.query('SELECT pg_notify($1, $2)', [CREDENTIALS_CHANGED_CHANNEL, credentialsProbePayload()]);
      // announced after the probe, so heard after it: once it is, the probe has been too
      await t.database.dataSource.query('SELECT pg_notify($1, $2)', [
        CREDENTIALS_CHANGED_CHANNEL,
        credentialsChangePayload({ kind: 'account', id: unrelated.id }),
      ]);
      const heardBy = Date.now() + 10_000;
      while (cache.generation() === before && Date.now() < heardBy) await new Promise((resolve) => setImmediate(resolve));
      expect(cache.generation()).toBe(before + 1);
      expect(cache.size()).toBe(1);
    } finally {
      await t.close();
    }
  });
});
