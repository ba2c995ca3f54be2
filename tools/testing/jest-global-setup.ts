import { join } from 'node:path';
import { startEmbeddedPostgres, EmbeddedPostgres } from '../../libs/persistence/src/lib/embedded-postgres';

/**
 * One PostgreSQL server for the whole run: TEST_DATABASE_URL or DATABASE_URL when given, else an
 * embedded server under .data/test-postgres. Every test file then creates its own database on it.
 * In a multi-project run this executes once per project; the first one starts the server and the
 * others find TEST_DATABASE_URL set.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env['TEST_DATABASE_URL']) return;
  if (process.env['DATABASE_URL']) {
    process.env['TEST_DATABASE_URL'] = process.env['DATABASE_URL'];
    return;
  }
  const server: EmbeddedPostgres = await startEmbeddedPostgres({
    dir: join(__dirname, '../../.data/test-postgres'),
    database: 'postgres',
  });
  process.env['TEST_DATABASE_URL'] = server.adminUrl;
  (globalThis as { twofoldTestPostgres?: EmbeddedPostgres }).twofoldTestPostgres = server;
}
