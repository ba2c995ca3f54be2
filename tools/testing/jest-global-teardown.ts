import { EmbeddedPostgres } from '../../libs/persistence/src/lib/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { twofoldTestPostgres?: EmbeddedPostgres };
  await holder.twofoldTestPostgres?.stop();
  holder.twofoldTestPostgres = undefined;
}
