import { ApiKeysRepository, SecretCipher } from '@twofold/persistence';
import { newResource } from '@twofold/persistence/testing';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { ApiCredentialsVerifier } from './api-credentials.verifier';

/**
 * A wrong secret for a real key must cost what any secret for an unknown key costs, or the time of a
 * 401 tells which keys exist. Time itself is not measured here (a busy machine's noise): the work is
 * counted — statements, rows read, secrets decrypted and their sizes — and must be the same.
 */
describe('API key verification does the same work for known and unknown keys', () => {
  let t: TestApp;
  let verifier: ApiCredentialsVerifier;
  let work: { decrypted: number[]; rows: { found: boolean; secretBytes: number }[] };

  beforeAll(async () => {
    t = await startTestApp();
    verifier = t.app.get(ApiCredentialsVerifier);
    const cipher = t.app.get(SecretCipher);
    const keys = t.app.get(ApiKeysRepository);
    const decrypt = cipher.decrypt.bind(cipher);
    jest.spyOn(cipher, 'decrypt').mockImplementation((purpose, stored) => {
      work.decrypted.push(stored.length);
      return decrypt(purpose, stored);
    });
    for (const method of ['accountKey', 'resourceKey'] as const) {
      const original = keys[method].bind(keys);
      jest.spyOn(keys, method).mockImplementation(async (key: string, decoy: Buffer) => {
        const row = await original(key, decoy);
        work.rows.push({ found: row.found, secretBytes: row.secretEnc.length });
        return row as never;
      });
    }
  });
  afterAll(() => t.close());
  beforeEach(() => {
    work = { decrypted: [], rows: [] };
  });

  const workOf = async (check: () => Promise<unknown>) => {
    work = { decrypted: [], rows: [] };
    await check().catch(() => undefined);
    return { decrypted: work.decrypted, rows: work.rows.map((row) => row.secretBytes) };
  };

  it('for account keys: one row read and one secret of the same size decrypted, known or not', async () => {
    const account = await t.newAccount();
    const wrongSecret = await workOf(() => verifier.verifyAccount(account.apiKey, 'x'.repeat(43)));
    const unknownKey = await workOf(() => verifier.verifyAccount('0123456789abcdef0123456789abcdef', 'x'.repeat(43)));
    expect(wrongSecret).toEqual({ decrypted: [expect.any(Number)], rows: [expect.any(Number)] });
    expect(unknownKey).toEqual(wrongSecret);
    expect(await verifier.verifyAccount('0123456789abcdef0123456789abcdef', 'x'.repeat(43))).toBeNull();
    expect(await verifier.verifyAccount(account.apiKey, 'x'.repeat(43))).toBeNull();
  });

  it('for resource keys: the same', async () => {
    const account = await t.newAccount();
    const resource = await newResource(t.db, t.cipher, account.account.id, 'VPN');
    const wrongSecret = await workOf(() => verifier.verifyResource(resource.apiKey, 'x'.repeat(43)));
    const unknownKey = await workOf(() => verifier.verifyResource('0123456789abcdef0123456789abcdef', 'x'.repeat(43)));
    expect(wrongSecret).toEqual({ decrypted: [expect.any(Number)], rows: [expect.any(Number)] });
    expect(unknownKey).toEqual(wrongSecret);
    expect(await verifier.verifyResource('0123456789abcdef0123456789abcdef', 'x'.repeat(43))).toBeNull();
  });

  it('right pairs still verify, from their own rows (never from the decoy)', async () => {
    const account = await t.newAccount();
    const resource = await newResource(t.db, t.cipher, account.account.id, 'Web');
    expect(await verifier.verifyAccount(account.apiKey, account.apiSecret)).toMatchObject({
      kind: 'account',
      accountId: account.account.id,
    });
    expect(await verifier.verifyResource(resource.apiKey, resource.apiSecret)).toMatchObject({
      kind: 'resource',
      resourceId: resource.resource.id,
      accountId: account.account.id,
    });
    // the decoy's secret is never a way in: it is random per process and the row says it was not found
    expect(work.rows.every((row) => row.found)).toBe(true);
  });
});
