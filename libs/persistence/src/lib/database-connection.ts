import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { DatabaseTimeouts, openDatabase } from './data-source';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { parseEncryptionKey, parsePreviousEncryptionKeys } from './secret-cipher';

/** Where the embedded database, the generated key and the mail outbox live: TWOFOLD_DATA_DIR or ./.data */
export function resolveDataDir(env: NodeJS.ProcessEnv): string {
  return resolve(env['TWOFOLD_DATA_DIR'] || '.data');
}

export class SettingError extends Error {}

/**
 * SECRET_ENCRYPTION_KEY. The embedded default generates it once into the data
 * directory; with an external database (production) it must be given, since losing it makes every
 * stored secret unreadable. The API and the CLI read it the same way, so they agree on the key.
 */
export function loadEncryptionKey(env: NodeJS.ProcessEnv, dataDir: string, embedded: boolean): Buffer {
  const given = env['SECRET_ENCRYPTION_KEY'];
  if (given) {
    try {
      return parseEncryptionKey(given);
    } catch (error) {
      throw new SettingError((error as Error).message);
    }
  }
  if (!embedded || env['NODE_ENV'] === 'production') {
    throw new SettingError('SECRET_ENCRYPTION_KEY is required with DATABASE_URL or NODE_ENV=production (32 bytes, hex or base64)');
  }
  const file = join(dataDir, 'secret-encryption-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
  }
  return parseEncryptionKey(readFileSync(file, 'utf8'));
}

/**
 * SECRET_ENCRYPTION_PREVIOUS_KEYS: keys a key rotation replaced, which only decrypt (docs/operations/encryption-key-rotation.md).
 * Absent: none.
 */
export function loadPreviousEncryptionKeys(env: NodeJS.ProcessEnv): Buffer[] {
  try {
    return parsePreviousEncryptionKeys(env['SECRET_ENCRYPTION_PREVIOUS_KEYS']);
  } catch (error) {
    throw new SettingError((error as Error).message);
  }
}

export interface DatabaseConnection {
  dataSource: DataSource;
  embedded?: EmbeddedPostgres;
  close(): Promise<void>;
}

/** DATABASE_URL when given, else the embedded server under `<dataDir>/postgres`; migrations applied unless told not to. */
export async function connectDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  applicationName?: string;
  timeouts?: DatabaseTimeouts;
  /** false: connect without applying pending migrations (default true) */
  migrate?: boolean;
  log?: (message: string) => void;
}): Promise<DatabaseConnection> {
  const embedded = options.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dir: join(options.dataDir, 'postgres'), database: 'twofold', log: options.log });
  try {
    const dataSource = await openDatabase({
      url: options.databaseUrl ?? (embedded as EmbeddedPostgres).url,
      poolSize: options.poolSize,
      applicationName: options.applicationName,
      timeouts: options.timeouts,
      migrate: options.migrate,
    });
    return {
      dataSource,
      embedded,
      close: async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        await embedded?.stop();
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
