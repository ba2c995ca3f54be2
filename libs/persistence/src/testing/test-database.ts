import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DatabaseTimeouts, openDatabase } from '../lib/data-source';

export interface TestDatabase {
  url: string;
  dataSource: DataSource;
  drop(): Promise<void>;
}

function serverUrl(): string {
  const url = process.env['TEST_DATABASE_URL'];
  if (!url) {
    throw new Error('TEST_DATABASE_URL is not set: run tests through jest, whose globalSetup provides a PostgreSQL server.');
  }
  return url;
}

export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabaseOptions {
  /** the pool's bounded waits; absent, unbounded (a loaded test machine must not turn slowness into 503s) */
  timeouts?: DatabaseTimeouts;
  /** the address the pool connects to instead of the database's own, e.g. a proxy in front of it */
  connectVia?: (url: string) => string;
}

/** A fresh database with every migration applied, on the run's one PostgreSQL server. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase & { name: string }> {
  const name = `twofold_test_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(serverUrl(), name);
  const dataSource = await openDatabase({
    url: options.connectVia ? options.connectVia(url) : url,
    poolSize: 20,
    applicationName: 'twofold-test',
    timeouts: options.timeouts,
  });
  return {
    name,
    url,
    dataSource,
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Runs `fn` on a connection of its own to the run's PostgreSQL server (e.g. to take a test database away). */
export function onTestServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  return onServer(fn);
}

/** An empty database without migrations, for testing the migrations themselves. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `twofold_test_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(serverUrl(), name),
    drop: () => onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
