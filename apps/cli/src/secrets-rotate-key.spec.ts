import { randomBytes } from 'node:crypto';
import { ManualClock } from '@twofold/domain';
import { ciphertextKeyId, Db, encryptionKeyId, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import { runCli } from './cli';
import { Provisioning } from './provisioning';

describe('cli secrets rotate-key', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  /** the CLI as configured with these keys (SECRET_ENCRYPTION_KEY first, then SECRET_ENCRYPTION_PREVIOUS_KEYS) */
  async function cli(keys: Buffer[], ...argv: string[]) {
    const cipher = new SecretCipher(keys[0], keys.slice(1));
    const provisioning = new Provisioning(new Db(database.dataSource), cipher, new ManualClock(new Date('2026-05-20T10:00:00Z')));
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => ({
      provisioning,
      dataSource: database.dataSource,
      close: async () => undefined,
    }));
    return { code, stdout, stderr };
  }

  const storedKeyIds = async () =>
    [
      ...(await database.dataSource.query('SELECT api_secret_enc AS c FROM accounts WHERE api_secret_enc IS NOT NULL')),
      ...(await database.dataSource.query('SELECT private_key_enc AS c FROM token_signing_keys')),
    ].map((r: { c: Buffer }) => ciphertextKeyId(r.c));

  it('has --help and refuses a wrong --batch-size before touching the database', async () => {
    const help = await cli([newKey], 'secrets', 'rotate-key', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--batch-size N');
    expect(help.stdout).toContain('SECRET_ENCRYPTION_PREVIOUS_KEYS');
    const wrong = await cli([newKey], 'secrets', 'rotate-key', '--batch-size', '0', '--json');
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stderr)).toEqual({ error: { code: 'USAGE', message: '--batch-size must be an integer from 1 to 100000' } });
  });

  it('re-encrypts what the old key wrote, prints the counts, and then the old key is no longer needed', async () => {
    const created = JSON.parse(
      (await cli([oldKey], 'account', 'create', '--name', 'A', '--owner-email', 'a@a.test', '--enable-api', '--json')).stdout,
    );
    await cli([oldKey], 'account', 'create', '--name', 'B', '--owner-email', 'b@b.test', '--enable-api', '--json');
    await cli([oldKey], 'token-key', 'rotate', '--json');
    expect(await storedKeyIds()).toEqual([encryptionKeyId(oldKey), encryptionKeyId(oldKey), encryptionKeyId(oldKey)]);

    const rotated = await cli([newKey, oldKey], 'secrets', 'rotate-key', '--batch-size', '1', '--json');
    expect(rotated.stderr).toBe('');
    expect(rotated.code).toBe(0);
    const out = JSON.parse(rotated.stdout);
    expect(out).toMatchObject({ keyId: encryptionKeyId(newKey), reencrypted: 3, alreadyCurrent: 0, skipped: 0 });
    expect(out.columns).toContainEqual({ column: 'accounts.api_secret_enc', reencrypted: 2, alreadyCurrent: 0, skipped: 0 });
    expect(await storedKeyIds()).toEqual([encryptionKeyId(newKey), encryptionKeyId(newKey), encryptionKeyId(newKey)]);
    // the new key alone reads the secret the old key wrote
    const enabled = JSON.parse((await cli([newKey], 'api', 'enable', '--account', created.account.id, '--json')).stdout);
    expect(enabled.secret).toBe(created.api.secret);

    const again = JSON.parse((await cli([newKey], 'secrets', 'rotate-key', '--json')).stdout);
    expect(again).toMatchObject({ reencrypted: 0, alreadyCurrent: 3, skipped: 0 });
    expect((await cli([newKey], 'secrets', 'rotate-key')).stdout).toContain('alreadyCurrent: 3');
  });

  it('fails with the key id it misses, never a key, when a secret is under a key not configured', async () => {
    const lost = randomBytes(32);
    await cli([lost], 'account', 'create', '--name', 'C', '--owner-email', 'c@c.test', '--enable-api', '--json');
    const result = await cli([newKey], 'secrets', 'rotate-key', '--json');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe('UNDECRYPTABLE_SECRETS');
    expect(error.message).toContain(`(key id ${encryptionKeyId(lost)})`);
    expect(error.message).toContain('SECRET_ENCRYPTION_PREVIOUS_KEYS');
    for (const key of [lost, newKey]) {
      expect(result.stderr).not.toContain(key.toString('hex'));
      expect(result.stderr).not.toContain(key.toString('base64'));
    }
  });
});
