import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { asAccountId } from '@twofold/domain';
import { createTestDatabase, legacyCiphertext, newAccount, newOtpAuthenticator, newResource, newUser, TestDatabase } from '../testing';
import { ciphertextKeyId, encryptionKeyId, SecretCipher } from './secret-cipher';
import { ENCRYPTED_COLUMNS, EncryptedColumn, rotateSecretEncryptionKey } from './secret-key-rotation';
import { Db } from './transaction-context';

const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const before = new SecretCipher(oldKey);
/** the configuration during a rotation: the new key encrypts, the old one still decrypts */
const during = new SecretCipher(newKey, [oldKey]);
/** the configuration once the rotation is done and the old key removed */
const after = new SecretCipher(newKey);

const NOW = new Date('2026-05-20T10:00:00Z');

/** One row for every encrypted column at least (five accounts), each holding a secret under the old key. */
async function seed(database: TestDatabase): Promise<void> {
  const db = new Db(database.dataSource);
  const q = (sql: string, params: unknown[]) => database.dataSource.query(sql, params);
  for (let i = 0; i < 5; i++) {
    const { account } = await newAccount(db, before, { now: NOW });
    const { resource } = await newResource(db, before, account.id);
    const user = await newUser(db, asAccountId(account.id), `user${i}`, { now: NOW });
    await newOtpAuthenticator(db, before, asAccountId(account.id), user.id, { kind: 'TotpToken', key: randomBytes(20), now: NOW });
    await q(`UPDATE authenticators SET private_id_enc = $1 WHERE user_id = $2`, [before.encrypt('authenticator.private-id', 'x'), user.id]);
    const [admin] = await q(
      `INSERT INTO administrators (account_id, identity, name, role, status, registration_date, activated_at, second_factor_secret_enc)
       VALUES ($1, $2, 'Admin', 'Admin', 'Active', $3, $3, $4) RETURNING id`,
      [account.id, `admin${i}@a.test`, NOW, before.encrypt('authenticator.secret', randomBytes(20))],
    );
    await q(
      `INSERT INTO enrollment_tokens (account_id, token_hash, administrator_id, created_at, expires_at, pending_secret_enc)
       VALUES ($1, $2, $3, $4, $4, $5)`,
      [account.id, randomBytes(32), admin.id, NOW, before.encrypt('authenticator.secret', randomBytes(20))],
    );
    await q(
      `INSERT INTO access_requests (account_id, resource_id, identity, status, created_at, pending_secret_enc)
       VALUES ($1, $2, $3, 'AwaitingAuthentication', $4, $5)`,
      [account.id, resource.id, `user${i}`, NOW, before.encrypt('authenticator.secret', randomBytes(20))],
    );
    await q(
      `INSERT INTO my_factors_pages (account_id, user_id, token_hash, pending_secret_enc, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [account.id, user.id, randomBytes(32), before.encrypt('authenticator.secret', randomBytes(20)), NOW],
    );
    await q(`INSERT INTO phone_gateways (account_id, method, settings_enc, updated_at) VALUES ($1, 'sms', $2, $3)`, [
      account.id,
      before.encrypt('phone.gateway', '{}'),
      NOW,
    ]);
    await q(`INSERT INTO token_signing_keys (kid, private_key_enc, public_jwk, created_at, retired_at) VALUES ($1, $2, '{}', $3, $4)`, [
      randomUUID(),
      before.encrypt('token.signing-key', 'pkcs8'),
      NOW,
      // one active key at most: the earlier ones retired
      i < 4 ? NOW : null,
    ]);
    // the service's VAPID key pair is one row at most
    if (i === 0)
      await q(`INSERT INTO web_push_vapid_keys (id, public_key, private_key_enc, created_at) VALUES (1, 'B', $1, $2)`, [
        before.encrypt('web-push.vapid-private-key', 'vapid'),
        NOW,
      ]);
  }
}

/**
 * Gives every row of `column` a fresh secret under the old key, every other one in the first format
 * (no key id, as earlier releases wrote it); returns the secrets by row.
 */
async function oldSecrets(database: TestDatabase, { table, key, column, purpose }: EncryptedColumn): Promise<Map<string, string>> {
  const secrets = new Map<string, string>();
  const rows: { k: string }[] = await database.dataSource.query(
    `SELECT ${key}::text AS k FROM ${table} WHERE ${column} IS NOT NULL ORDER BY ${key}`,
  );
  for (const [i, { k }] of rows.entries()) {
    const secret = randomBytes(20).toString('hex');
    const stored = i % 2 === 0 ? legacyCiphertext(oldKey, purpose, secret) : before.encrypt(purpose, secret);
    await database.dataSource.query(`UPDATE ${table} SET ${column} = $1 WHERE ${key}::text = $2`, [stored, k]);
    secrets.set(k, secret);
  }
  return secrets;
}

async function stored(database: TestDatabase, { table, key, column }: EncryptedColumn): Promise<Map<string, Buffer>> {
  const rows: { k: string; c: Buffer }[] = await database.dataSource.query(
    `SELECT ${key}::text AS k, ${column} AS c FROM ${table} WHERE ${column} IS NOT NULL`,
  );
  return new Map(rows.map((r) => [r.k, r.c]));
}

describe('rotateSecretEncryptionKey (cli secrets rotate-key)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seed(database);
  });
  afterAll(() => database.drop());

  it('knows every encrypted column of the schema', async () => {
    const rows: { table_name: string; column_name: string }[] = await database.dataSource.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type = 'bytea' AND column_name LIKE '%\\_enc'`,
    );
    const schema = rows.map((r) => `${r.table_name}.${r.column_name}`).sort();
    expect(ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`).sort()).toEqual(schema);
  });

  it('re-encrypts every row of every column under the new key, in batches; old-format rows included; a second run finds all current', async () => {
    const secrets = new Map<EncryptedColumn, Map<string, string>>();
    for (const column of ENCRYPTED_COLUMNS) secrets.set(column, await oldSecrets(database, column));
    const total = [...secrets.values()].reduce((n, m) => n + m.size, 0);
    expect(total).toBe((ENCRYPTED_COLUMNS.length - 1) * 5 + 1);
    // before: the old format and the old key are read by the rotating configuration
    for (const column of ENCRYPTED_COLUMNS) {
      for (const [k, c] of await stored(database, column)) expect(during.decryptText(column.purpose, c)).toBe(secrets.get(column)?.get(k));
    }

    const first = await rotateSecretEncryptionKey(database.dataSource, during, { batchSize: 2 });
    expect(first).toMatchObject({ keyId: encryptionKeyId(newKey), reencrypted: total, alreadyCurrent: 0, skipped: 0, undecryptable: 0 });
    expect(first.columns).toHaveLength(ENCRYPTED_COLUMNS.length);
    for (const column of ENCRYPTED_COLUMNS) {
      const rows = await stored(database, column);
      expect(rows.size).toBe(column.table === 'web_push_vapid_keys' ? 1 : 5);
      for (const [k, c] of rows) {
        expect(ciphertextKeyId(c)).toBe(encryptionKeyId(newKey));
        // the old key is no longer needed
        expect(after.decryptText(column.purpose, c)).toBe(secrets.get(column)?.get(k));
      }
    }

    const second = await rotateSecretEncryptionKey(database.dataSource, during, { batchSize: 3 });
    expect(second).toMatchObject({ reencrypted: 0, alreadyCurrent: total, skipped: 0, undecryptable: 0 });
  });

  it('never overwrites a secret changed between its read and its write (the API writing meanwhile)', async () => {
    const column = ENCRYPTED_COLUMNS.find((c) => c.table === 'authenticators' && c.column === 'secret_enc') as EncryptedColumn;
    const secrets = await oldSecrets(database, column);
    const [changedId] = [...secrets.keys()];
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      // the API replaces the secret in a transaction still open when the rotation reads and then writes
      await client.query('BEGIN');
      const written = after.encrypt('authenticator.secret', 'written by the API');
      await client.query('UPDATE authenticators SET secret_enc = $1 WHERE id = $2', [written, changedId]);
      const rotation = rotateSecretEncryptionKey(database.dataSource, during, { columns: [column] });
      // the rotation's UPDATE waits for the row lock: the point at which it has read the old ciphertext
      while (
        Number(
          (
            await database.dataSource.query(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
          )[0].n,
        ) === 0
      ) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      await client.query('COMMIT');
      expect(await rotation).toMatchObject({ reencrypted: secrets.size - 1, skipped: 1, alreadyCurrent: 0 });
      const rows = await stored(database, column);
      expect(rows.get(changedId)?.equals(written)).toBe(true);
      for (const [k, c] of rows) if (k !== changedId) expect(after.decryptText(column.purpose, c)).toBe(secrets.get(k));
    } finally {
      await client.end();
    }
  });

  it('leaves a row under a key that is not configured, names its key id and counts it, and rotates the rest', async () => {
    const column = ENCRYPTED_COLUMNS.find((c) => c.table === 'resources') as EncryptedColumn;
    const secrets = await oldSecrets(database, column);
    const lost = randomBytes(32);
    const [lostId] = [...secrets.keys()];
    await database.dataSource.query('UPDATE resources SET api_secret_enc = $1 WHERE id = $2', [
      new SecretCipher(lost).encrypt('resource.api-secret', 'x'),
      lostId,
    ]);
    const result = await rotateSecretEncryptionKey(database.dataSource, during, { columns: [column] });
    expect(result).toMatchObject({ reencrypted: secrets.size - 1, undecryptable: 1, skipped: 0 });
    expect(result.undecryptableRows).toEqual([`resources.api_secret_enc ${lostId} (key id ${encryptionKeyId(lost)})`]);
  });

  it('refuses a batch size that is not a positive integer', async () => {
    await expect(rotateSecretEncryptionKey(database.dataSource, during, { batchSize: 0 })).rejects.toThrow('batch size');
  });
});
