import { DataSource } from 'typeorm';
import { SecretCipher, SecretDecryptionError, SecretPurpose, UnknownEncryptionKeyError } from './secret-cipher';

/** A column holding SecretCipher ciphertexts, with the purpose they were encrypted for. */
export interface EncryptedColumn {
  table: string;
  /** the primary key, and its type for the batch's update */
  key: string;
  keyType: 'uuid' | 'text' | 'smallint';
  column: string;
  purpose: SecretPurpose;
}

/** Every encrypted column of the schema (a test compares this list with the migrated schema's `*_enc` columns). */
export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  { table: 'accounts', key: 'id', keyType: 'uuid', column: 'api_secret_enc', purpose: 'account.api-secret' },
  { table: 'resources', key: 'id', keyType: 'uuid', column: 'api_secret_enc', purpose: 'resource.api-secret' },
  { table: 'authenticators', key: 'id', keyType: 'uuid', column: 'secret_enc', purpose: 'authenticator.secret' },
  { table: 'authenticators', key: 'id', keyType: 'uuid', column: 'private_id_enc', purpose: 'authenticator.private-id' },
  // an administrator's authenticator-app secret, moved from their enrollment token when they enrol
  { table: 'administrators', key: 'id', keyType: 'uuid', column: 'second_factor_secret_enc', purpose: 'authenticator.secret' },
  { table: 'enrollment_tokens', key: 'id', keyType: 'uuid', column: 'pending_secret_enc', purpose: 'authenticator.secret' },
  { table: 'access_requests', key: 'id', keyType: 'uuid', column: 'pending_secret_enc', purpose: 'authenticator.secret' },
  // the authenticator-app secret a "my factors" page shows while the user types its first code
  { table: 'my_factors_pages', key: 'id', keyType: 'uuid', column: 'pending_secret_enc', purpose: 'authenticator.secret' },
  { table: 'token_signing_keys', key: 'kid', keyType: 'text', column: 'private_key_enc', purpose: 'token.signing-key' },
  { table: 'web_push_vapid_keys', key: 'id', keyType: 'smallint', column: 'private_key_enc', purpose: 'web-push.vapid-private-key' },
  { table: 'phone_gateways', key: 'id', keyType: 'uuid', column: 'settings_enc', purpose: 'phone.gateway' },
];

export const DEFAULT_ROTATION_BATCH_SIZE = 500;

export interface ColumnRotation {
  /** `table.column` */
  column: string;
  /** rewritten under the current key */
  reencrypted: number;
  /** already under the current key: left alone */
  alreadyCurrent: number;
  /** changed by someone else (the running API) between read and write: left as they now are */
  skipped: number;
  /** under a key that is not configured, or corrupted: left alone, and the rotation is not complete */
  undecryptable: number;
}

export interface KeyRotationResult {
  keyId: string;
  reencrypted: number;
  alreadyCurrent: number;
  skipped: number;
  undecryptable: number;
  /** the first few rows that could not be decrypted (`table.column key`), with the key id they need when known */
  undecryptableRows: string[];
  columns: ColumnRotation[];
}

const LISTED_UNDECRYPTABLE = 20;

/**
 * `cli secrets rotate-key`: re-encrypts every stored secret under the current SECRET_ENCRYPTION_KEY
 * while the API keeps running. Rows are read in batches in primary-key order without locks; each batch
 * is written back by one UPDATE that changes a row only if its ciphertext is still the one read, so a
 * secret the API wrote meanwhile (a new authenticator, a rotated API secret) is never overwritten with
 * the older value. Each batch commits on its own: an interrupted run loses nothing, and a new run
 * finds the rows done so far already current.
 */
export async function rotateSecretEncryptionKey(
  dataSource: DataSource,
  cipher: SecretCipher,
  options: { batchSize?: number; columns?: readonly EncryptedColumn[] } = {},
): Promise<KeyRotationResult> {
  const batchSize = options.batchSize ?? DEFAULT_ROTATION_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('the batch size must be a positive integer');
  const result: KeyRotationResult = {
    keyId: cipher.keyId,
    reencrypted: 0,
    alreadyCurrent: 0,
    skipped: 0,
    undecryptable: 0,
    undecryptableRows: [],
    columns: [],
  };
  for (const column of options.columns ?? ENCRYPTED_COLUMNS) {
    const counts = await rotateColumn(dataSource, cipher, column, batchSize, (row) => {
      if (result.undecryptableRows.length < LISTED_UNDECRYPTABLE) result.undecryptableRows.push(row);
    });
    result.columns.push(counts);
    result.reencrypted += counts.reencrypted;
    result.alreadyCurrent += counts.alreadyCurrent;
    result.skipped += counts.skipped;
    result.undecryptable += counts.undecryptable;
  }
  return result;
}

async function rotateColumn(
  dataSource: DataSource,
  cipher: SecretCipher,
  { table, key, keyType, column, purpose }: EncryptedColumn,
  batchSize: number,
  undecryptable: (row: string) => void,
): Promise<ColumnRotation> {
  const counts: ColumnRotation = { column: `${table}.${column}`, reencrypted: 0, alreadyCurrent: 0, skipped: 0, undecryptable: 0 };
  let after: string | null = null;
  for (;;) {
    const rows: { k: string; c: Buffer }[] = await dataSource.query(
      `SELECT ${key}::text AS k, ${column} AS c FROM ${table}
        WHERE ${column} IS NOT NULL AND ($1::${keyType} IS NULL OR ${key} > $1::${keyType})
        ORDER BY ${key} LIMIT $2`,
      [after, batchSize],
    );
    if (rows.length === 0) return counts;
    after = rows[rows.length - 1].k;
    const keys: string[] = [];
    const read: Buffer[] = [];
    const written: Buffer[] = [];
    for (const row of rows) {
      if (cipher.isCurrent(row.c)) {
        counts.alreadyCurrent++;
        continue;
      }
      let plaintext: Buffer;
      try {
        plaintext = cipher.decrypt(purpose, row.c);
      } catch (error) {
        if (!(error instanceof SecretDecryptionError)) throw error;
        counts.undecryptable++;
        undecryptable(`${table}.${column} ${row.k}${error instanceof UnknownEncryptionKeyError ? ` (key id ${error.keyId})` : ''}`);
        continue;
      }
      keys.push(row.k);
      read.push(row.c);
      written.push(cipher.encrypt(purpose, plaintext));
    }
    if (keys.length > 0) {
      // one statement, its own short transaction; a row whose ciphertext changed since the read is not matched
      // TypeORM answers an UPDATE on PostgreSQL with [rows, affected count]
      const [, updated]: [unknown[], number] = await dataSource.query(
        `UPDATE ${table} AS t SET ${column} = v.written
           FROM unnest($1::${keyType}[], $2::bytea[], $3::bytea[]) AS v(k, read, written)
          WHERE t.${key} = v.k AND t.${column} = v.read`,
        [keys, read, written],
      );
      counts.reencrypted += updated;
      counts.skipped += keys.length - updated;
    }
    if (rows.length < batchSize) return counts;
  }
}
