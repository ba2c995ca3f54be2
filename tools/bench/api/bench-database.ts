import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { Client } from 'pg';
// Relative on purpose: plain ts-node does not resolve the path aliases (as bench-api.ts does).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { API_BUNDLE, CLI_BUNDLE } from '../../../apps/api-e2e/src/processes';

/** A database of the benchmark's own on the server DATABASE_URL names: its URL, and how to drop it. */
export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * What the benchmarks that run the built API as a process start from: the bundles, and a fresh
 * database named `<prefix>_<random>` on DATABASE_URL's server. Null, having said why, when either is
 * missing.
 */
export async function openBenchDatabase(prefix: string): Promise<BenchDatabase | null> {
  if (!existsSync(API_BUNDLE) || !existsSync(CLI_BUNDLE)) {
    console.error('build the bundles first: npm run build');
    return null;
  }
  const server = process.env['DATABASE_URL'];
  if (!server) {
    console.error('DATABASE_URL must name a PostgreSQL server (the benchmark creates and drops a database of its own)');
    return null;
  }
  const database = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(server);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    },
  };
}
