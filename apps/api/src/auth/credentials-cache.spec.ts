import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountsRepository, Db, generateApiCredentials, openDatabase } from '@twofold/persistence';
import { basicAuthorization } from '@twofold/persistence/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp, initApp } from '../app/create-app';
import { AppConfig } from '../config/app-config';
import { countQueries } from '../testing/query-counter';
import { startTestApp, TestApp } from '../testing/test-app';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/**
 * Issue 11: verified credentials are cached, and a cached grant never outlives a disable, re-key or
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

  it('answers a known pair from memory: one round trip less than a first use', async () => {
    const known = await t.newAccount();
    const other = await t.newAccount();
    expect((await onSecond().get('/users/count').set('Authorization', known.authorization)).status).toBe(200);
    const firstUse = await countQueries(() => onSecond().get('/users/count').set('Authorization', other.authorization).expect(200));
    const fromMemory = await countQueries(() => onSecond().get('/users/count').set('Authorization', known.authorization).expect(200));
    expect(fromMemory).toBe(firstUse - 1);
  });

  it('a disable by the operator (CLI) ends the cached grant on every instance', async () => {
    const { account, authorization } = await t.newAccount();
    expect((await onSecond().get('/users/count').set('Authorization', authorization)).status).toBe(200);
    await new AccountsRepository(new Db(t.database.dataSource)).setApi(account.id, { apiEnabled: false });
    await eventually(
      async () => (await onSecond().get('/users/count').set('Authorization', authorization)).status === 403,
      'the second instance refuses the disabled API',
    );
  });

  it('a new secret ends the old one on every instance', async () => {
    const { account, authorization, apiKey } = await t.newAccount();
    expect((await onSecond().get('/users/count').set('Authorization', authorization)).status).toBe(200);
    const rotated = generateApiCredentials();
    await new AccountsRepository(new Db(t.database.dataSource)).setApi(account.id, {
      apiEnabled: true,
      apiSecretEnc: t.cipher.encrypt('account.api-secret', rotated.secret),
    });
    await eventually(
      async () => (await onSecond().get('/users/count').set('Authorization', authorization)).status === 401,
      'the old secret is refused',
    );
    expect((await onSecond().get('/users/count').set('Authorization', basicAuthorization(apiKey, rotated.secret))).status).toBe(200);
  });

  it('a resource deleted through one instance is refused by the other', async () => {
    const { account, authorization } = await t.newAccount();
    const resource = await t.newResource(account.id, 'VPN');
    expect((await onSecond().post('/access/requests').set('Authorization', resource.authorization).send({ identity: 'u' })).status).toBe(
      200,
    );
    expect((await t.http().delete(`/resources/${resource.resource.id}`).set('Authorization', authorization)).status).toBe(200);
    await eventually(
      async () =>
        (await onSecond().post('/access/requests').set('Authorization', resource.authorization).send({ identity: 'u' })).status === 401,
      'the deleted resource is refused',
    );
  });

  it('trusts nothing from memory while its listening connection is lost, and listens again by itself', async () => {
    const cache = second.get(VerifiedCredentialsCache);
    const { authorization } = await t.newAccount();
    expect((await onSecond().get('/users/count').set('Authorization', authorization)).status).toBe(200);
    expect(cache.size()).toBeGreaterThan(0);
    await t.database.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'twofold-credentials-listener' AND datname = current_database()`,
    );
    await eventually(async () => cache.size() === 0, 'the cache is emptied');
    await eventually(async () => {
      await onSecond().get('/users/count').set('Authorization', authorization);
      return cache.size() > 0;
    }, 'the listener is back and the cache in use again');
  });
});
