import { randomBytes } from 'node:crypto';
import { ManualClock } from '@twofold/domain';
import { Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import { runCli } from './cli';
import { Provisioning } from './provisioning';

describe('operator CLI (CONTRACT §2)', () => {
  let database: TestDatabase;
  let provisioning: Provisioning;
  let cipher: SecretCipher;

  beforeAll(async () => {
    database = await createTestDatabase();
    cipher = new SecretCipher(randomBytes(32));
    provisioning = new Provisioning(new Db(database.dataSource), cipher, new ManualClock(new Date('2026-05-20T10:00:00Z')));
  });
  afterAll(() => database.drop());

  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => ({ provisioning, close: async () => undefined }));
    return { code, stdout, stderr };
  }

  const events = (accountId: string) =>
    database.dataSource.query('SELECT object, action, subject, success FROM journal_events WHERE account_id = $1 ORDER BY seq', [accountId]);

  it('creates an account with an active Admin owner, AllUsers and API credentials, as one JSON object', async () => {
    const { code, stdout, stderr } = await cli('account', 'create', '--name', 'A', '--owner-email', 'o@a.test', '--enable-api', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      account: { id: expect.any(String), name: 'A', licenses: 100 },
      owner: { id: expect.any(String), identity: 'o@a.test', status: 'Active' },
      api: { enabled: true, key: expect.stringMatching(/^[0-9a-f]{32}$/), secret: expect.any(String) },
    });
    const [admin] = await database.dataSource.query('SELECT role, status FROM administrators WHERE id = $1', [out.owner.id]);
    expect(admin).toEqual({ role: 'Admin', status: 'Active' });
    const groups = await database.dataSource.query('SELECT name, system FROM groups WHERE account_id = $1', [out.account.id]);
    expect(groups).toEqual([{ name: 'AllUsers', system: true }]);
    const [stored] = await database.dataSource.query('SELECT api_secret_enc FROM accounts WHERE id = $1', [out.account.id]);
    expect(cipher.decryptText('account.api-secret', stored.api_secret_enc)).toBe(out.api.secret);
    expect(Buffer.from(stored.api_secret_enc).toString('latin1')).not.toContain(out.api.secret);
    expect(await events(out.account.id)).toEqual([
      { object: 'Employee', action: 'Create', subject: 'cli', success: true },
      { object: 'Api', action: 'Enable', subject: 'cli', success: true },
    ]);
  });

  it('gives null credentials without --enable-api, and honours --licenses and --owner-name', async () => {
    const out = JSON.parse((await cli('account', 'create', '--name', 'B', '--owner-email', 'b@b.test', '--owner-name', 'Bea', '--licenses', '7', '--json')).stdout);
    expect(out.api).toEqual({ enabled: false, key: null, secret: null });
    expect(out.account.licenses).toBe(7);
  });

  it('enables, disables and rotates the API secret, each journaled', async () => {
    const created = JSON.parse((await cli('account', 'create', '--name', 'C', '--owner-email', 'c@c.test', '--json')).stdout);
    const id = created.account.id;
    const enabled = JSON.parse((await cli('api', 'enable', '--account', id, '--json')).stdout);
    expect(enabled).toEqual({ enabled: true, key: expect.any(String), secret: expect.any(String) });
    expect(JSON.parse((await cli('api', 'disable', '--account', id, '--json')).stdout)).toEqual({ enabled: false });
    // re-enabling keeps the credentials clients already have
    expect(JSON.parse((await cli('api', 'enable', '--account', id, '--json')).stdout)).toEqual(enabled);
    const rotated = JSON.parse((await cli('api', 'rotate-secret', '--account', id, '--json')).stdout);
    expect(rotated.key).toBe(enabled.key);
    expect(rotated.secret).not.toBe(enabled.secret);
    expect((await events(id)).map((e: { object: string; action: string }) => `${e.object} ${e.action}`)).toEqual([
      'Employee Create',
      'Api Enable',
      'Api Disable',
      'Api Enable',
      'PublicApiSecret Update',
    ]);
  });

  it('lists and shows accounts without secrets', async () => {
    const created = JSON.parse((await cli('account', 'create', '--name', 'D', '--owner-email', 'd@d.test', '--enable-api', '--json')).stdout);
    const list = JSON.parse((await cli('account', 'list', '--json')).stdout);
    expect(list.accounts.map((a: { name: string }) => a.name)).toContain('D');
    const show = await cli('account', 'show', '--account', created.account.id, '--json');
    const shown = JSON.parse(show.stdout).account;
    expect(shown).toMatchObject({ id: created.account.id, name: 'D', api: { enabled: true, key: created.api.key } });
    expect(shown.administrators).toEqual([{ id: created.owner.id, identity: 'd@d.test', name: 'd@d.test', role: 'Admin', status: 'Active' }]);
    expect(show.stdout).not.toContain(created.api.secret);
  });

  it.each([
    [['account', 'create', '--owner-email', 'x@x.test'], 2, '--name is required'],
    [['account', 'create', '--name', 'X', '--owner-email', 'x@x.test', '--licenses=-3'], 2, '--licenses must be a non-negative integer'],
    [['account', 'create', '--name', 'X', '--owner-email', 'x@x.test', '--licenses', 'many'], 2, '--licenses must be a non-negative integer'],
    [['account', 'create', '--name', 'X', '--owner-email', 'not-an-email'], 1, '--owner-email must be an e-mail address.'],
    [['api', 'enable', '--account', '00000000-0000-0000-0000-000000000000'], 1, 'Account not found.'],
    [['api', 'enable', '--account', 'nope'], 1, 'Account not found.'],
    [['frobnicate'], 2, 'unknown command: frobnicate'],
    [['account', 'list', '--bogus'], 2, "Unknown option '--bogus'"],
  ])('refuses %p with exit %i on stderr', async (argv, exitCode, message) => {
    const { code, stdout, stderr } = await cli(...(argv as string[]), '--json');
    expect(code).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });
});
