import { randomUUID } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { credentialsChangePayload, CREDENTIALS_CHANGED_CHANNEL } from '@twofold/persistence';
import { DataSource } from 'typeorm';
import { VerifiedCredentialsCache } from '../../src/auth/verified-credentials.cache';

/**
 * Resolves once `app` has heard every credential change announced on `dataSource`'s database so far.
 * Announcements reach a listener in the order they were made, so hearing a marker announced now means
 * the earlier ones were heard. A change made through `app` itself is forgotten at its commit and then
 * heard again when its notification comes back: a test that counts a cached call's statements waits
 * for that echo, or the echo lands in the counted call and costs it a credentials lookup.
 */
export async function heardEverythingAnnounced(app: INestApplication, dataSource: DataSource): Promise<void> {
  const cache = app.get(VerifiedCredentialsCache);
  const before = cache.generation();
  await dataSource.query('SELECT pg_notify($1, $2)', [
    CREDENTIALS_CHANGED_CHANNEL,
    credentialsChangePayload({ kind: 'account', id: randomUUID() }),
  ]);
  const until = Date.now() + 10_000;
  while (cache.generation() === before) {
    if (Date.now() > until) throw new Error('not within 10 s: the instance hears the credential changes announced so far');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
