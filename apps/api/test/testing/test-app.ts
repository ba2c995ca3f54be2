import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountId, ManualClock } from '@twofold/domain';
import { Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, newAccount, newResource, TestAccount, TestDatabase, TestDatabaseOptions } from '@twofold/persistence/testing';
import { Client } from 'pg';
import request from 'supertest';
import { createApp, initApp } from '../../src/app/create-app';
import { AppConfig, DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../../src/config/app-config';
import { AppRuntime } from '../../src/app/infrastructure.module';
import { SecretRecorder } from './secret-recorder';

/** Who calls: an Authorization header value, or what carries one (a TestAccount, a test resource). */
export type Credential = string | { readonly authorization: string };

/** A client whose every request carries one caller's Authorization header. */
export interface AuthorizedClient {
  get(url: string): request.Test;
  post(url: string): request.Test;
  put(url: string): request.Test;
  patch(url: string): request.Test;
  delete(url: string): request.Test;
  head(url: string): request.Test;
  options(url: string): request.Test;
}

/**
 * The one place tests set the Authorization header: `asCaller(credential, http).get('/users')`. `http`
 * makes a plain client of an app (`t.http`, a second instance's `() => request(server)`). Tests whose
 * point is the header itself (Basic parsing, malformed values) set it by hand.
 */
export function asCaller(credential: Credential, http: () => ReturnType<typeof request>): AuthorizedClient {
  const header = typeof credential === 'string' ? credential : credential.authorization;
  return {
    get: (url) => http().get(url).set('Authorization', header),
    post: (url) => http().post(url).set('Authorization', header),
    put: (url) => http().put(url).set('Authorization', header),
    patch: (url) => http().patch(url).set('Authorization', header),
    delete: (url) => http().delete(url).set('Authorization', header),
    head: (url) => http().head(url).set('Authorization', header),
    options: (url) => http().options(url).set('Authorization', header),
  };
}

export interface TestApp {
  app: NestFastifyApplication;
  http: () => ReturnType<typeof request>;
  /** A client of this app calling as `credential`: `t.as(account).get('/v2/users')`. */
  as(credential: Credential): AuthorizedClient;
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
 * In the api project's jest run the app records for the whole-suite secrets scan (secret-recorder.ts):
 * its log lines (at `trace` unless the test chose a level), error bodies, journal and mails, and the
 * secrets it saw; `secretRecorder` gives a recorder of the test's own, `null` none.
 */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  runtime: Pick<AppRuntime, 'logDestination'> & { database?: TestDatabaseOptions; secretRecorder?: SecretRecorder | null } = {},
): Promise<TestApp> {
  const { database: databaseOptions, secretRecorder, ...appRuntime } = runtime;
  const recorder = secretRecorder === undefined ? SecretRecorder.forRun() : (secretRecorder ?? undefined);
  const database = await createTestDatabase(databaseOptions);
  const clock = new ManualClock(TEST_NOW);
  // the scan reads every line the app would write; a test that reads its own lines keeps its level
  const level: Partial<AppConfig> = recorder && !appRuntime.logDestination ? { logLevel: 'trace' } : {};
  const config = testConfig(database.url, { ...level, ...overrides });
  const logDestination = recorder ? recorder.logDestination(appRuntime.logDestination) : appRuntime.logDestination;
  // a retry's wait moves the test's clock instead of taking time
  const sleep = async (ms: number) => clock.advance(ms);
  const app = await createApp({ config, dataSource: database.dataSource, clock, sleep, ...appRuntime, logDestination });
  if (recorder) {
    recorder.watchHttp(app.getHttpAdapter().getInstance());
    recorder.watchCipher(app.get(SecretCipher));
  }
  await initApp(app);
  const db = new Db(database.dataSource);
  const cipher = new SecretCipher(config.encryptionKey, config.previousEncryptionKeys);
  recorder?.watchCipher(cipher);
  const http = () => request(app.getHttpServer());
  return {
    app,
    http,
    as: (credential) => asCaller(credential, http),
    browser: () => request.agent(app.getHttpServer()),
    clock,
    db,
    cipher,
    database,
    newAccount: (options) => newAccount(db, cipher, { now: clock.now(), ...options }),
    newResource: (accountId, name) => newResource(db, cipher, accountId, name),
    close: async () => {
      await app.close();
      if (recorder) await recordJournalAndMails(recorder, database.url, config.dataDir);
      await database.drop();
    },
  };
}

/**
 * The journal and the outbox for the scan, read once the app is closed (nothing is written any more),
 * on a connection of its own: the app's pool may have gone through a proxy the test stopped.
 */
async function recordJournalAndMails(recorder: SecretRecorder, databaseUrl: string, dataDir: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await recorder.readJournal((sql) => client.query(sql).then((r) => r.rows));
  } finally {
    await client.end();
  }
  recorder.readOutbox(dataDir);
  recorder.flush();
}
