import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountId, ManualClock } from '@twofold/domain';
import { Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, newAccount, newResource, TestAccount, TestDatabase, TestDatabaseOptions } from '@twofold/persistence/testing';
import request from 'supertest';
import { createApp, initApp } from '../app/create-app';
import { AppConfig, DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../config/app-config';
import { AppRuntime } from '../app/infrastructure.module';

export interface TestApp {
  app: NestFastifyApplication;
  http: () => ReturnType<typeof request>;
  /** A new browser: a client that keeps the cookies pages set and sends them back, as a browser does. */
  browser: () => ReturnType<typeof request.agent>;
  clock: ManualClock;
  db: Db;
  cipher: SecretCipher;
  database: TestDatabase & { name: string };
  newAccount(options?: Parameters<typeof newAccount>[2]): Promise<TestAccount>;
  newResource(accountId: AccountId, name?: string): ReturnType<typeof newResource>;
  close(): Promise<void>;
}

export const TEST_NOW = new Date('2026-05-20T10:00:00.000Z');

/** The configuration of a test application on `databaseUrl`: a fresh encryption key, no logs. */
export function testConfig(databaseUrl: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    port: 0,
    databaseUrl,
    publicUrl: 'http://twofold.test',
    accessUrl: 'http://twofold.test/access',
    tokenIssuer: 'http://twofold.test',
    encryptionKey: randomBytes(32),
    mailFrom: 'Twofold <no-reply@twofold.test>',
    logLevel: 'silent',
    apiDocs: true,
    dataDir: join(tmpdir(), `twofold-test-${randomBytes(4).toString('hex')}`),
    databaseTimeouts: { connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS },
    ...overrides,
  };
}

/**
 * The real application on a fresh database of the run's PostgreSQL server, with a manual clock.
 * `database` sets the pool's timeouts or puts something between the pool and the server.
 */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  runtime: Pick<AppRuntime, 'logDestination'> & { database?: TestDatabaseOptions } = {},
): Promise<TestApp> {
  const { database: databaseOptions, ...appRuntime } = runtime;
  const database = await createTestDatabase(databaseOptions);
  const clock = new ManualClock(TEST_NOW);
  const config = testConfig(database.url, overrides);
  const app = await createApp({ config, dataSource: database.dataSource, clock, ...appRuntime });
  await initApp(app);
  const db = new Db(database.dataSource);
  const cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  return {
    app,
    http: () => request(app.getHttpServer()),
    browser: () => request.agent(app.getHttpServer()),
    clock,
    db,
    cipher,
    database,
    newAccount: (options) => newAccount(db, cipher, { now: clock.now(), ...options }),
    newResource: (accountId, name) => newResource(db, cipher, accountId, name),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
