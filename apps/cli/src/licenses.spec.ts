import { randomBytes } from 'node:crypto';
import { asAccountId, assertWithinLicenses, ManualClock } from '@twofold/domain';
import { AccountsRepository, Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, newUser, TestDatabase } from '@twofold/persistence/testing';
import { runCli } from './cli';
import { Provisioning } from './provisioning';

describe('account licenses: how many users an account may have, shown and changed by the operator', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
  });
  afterAll(() => database.drop());

  async function cli(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const provisioning = new Provisioning(db, new SecretCipher(randomBytes(32)), new ManualClock(new Date('2026-05-20T10:00:00Z')));
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => ({
      provisioning,
      dataSource: database.dataSource,
      close: async () => undefined,
    }));
    return { code, stdout, stderr, json: code === 0 ? JSON.parse(stdout) : JSON.parse(stderr) };
  }

  async function accountWithUsers(licenses: number, users: number): Promise<string> {
    const created = await cli(
      'account',
      'create',
      '--name',
      'Acme',
      '--owner-email',
      `o${randomBytes(4).toString('hex')}@a.test`,
      '--licenses',
      String(licenses),
      '--json',
    );
    const id = created.json.account.id as string;
    for (let i = 0; i < users; i++) await newUser(db, asAccountId(id), `user${i}`);
    return id;
  }

  const licenseEvents = (accountId: string) =>
    database.dataSource.query(
      `SELECT object, action, subject, success, additional_fields AS fields FROM journal_events
        WHERE account_id = $1 AND object = 'Accounts' ORDER BY seq`,
      [accountId],
    );

  it('shows the licences, the users that use them and those still free, changing nothing', async () => {
    const id = await accountWithUsers(3, 2);
    const shown = await cli('account', 'licenses', '--account', id, '--json');
    expect(shown.code).toBe(0);
    expect(shown.json).toEqual({ account: { id, name: 'Acme' }, licenses: 3, used: 2, free: 1 });
    expect(await licenseEvents(id)).toEqual([]);
  });

  it('raises them, journaled Accounts ChangeLicenses with the old and new number, and the next user fits', async () => {
    const id = await accountWithUsers(2, 2);
    expect(() => assertWithinLicenses(2, 2)).toThrow('Users quota exceeded');
    const raised = await cli('account', 'licenses', '--account', id, '--set', '250', '--json');
    expect(raised.json).toEqual({ account: { id, name: 'Acme' }, licenses: 250, used: 2, free: 248, changed: true, previous: 2 });
    const stored = await new AccountsRepository(db).lockForUserCreation(asAccountId(id));
    expect(stored).toEqual({ licenses: 250, users: 2, identityTaken: false });
    expect(await licenseEvents(id)).toEqual([
      {
        object: 'Accounts',
        action: 'ChangeLicenses',
        subject: 'cli',
        success: true,
        fields: { Licenses: '250', PreviousLicenses: '2', Source: 'OperatorCli' },
      },
    ]);
  });

  it('lowers them down to the users the account has, not below; the same number changes nothing', async () => {
    const id = await accountWithUsers(10, 4);
    const below = await cli('account', 'licenses', '--account', id, '--set', '3', '--json');
    expect(below.code).toBe(1);
    expect(below.json).toEqual({
      error: { code: 'VALIDATION', message: 'The account has 4 users: set at least 4 licences, or delete users first.' },
    });
    expect((await cli('account', 'licenses', '--account', id, '--set', '4', '--json')).json).toMatchObject({
      licenses: 4,
      free: 0,
      changed: true,
      previous: 10,
    });
    expect((await cli('account', 'licenses', '--account', id, '--set', '4', '--json')).json).toMatchObject({ changed: false });
    expect((await licenseEvents(id)).map((e: { fields: object }) => e.fields)).toEqual([
      { Licenses: '4', PreviousLicenses: '10', Source: 'OperatorCli' },
    ]);
  });

  it.each([
    [['--set', 'many'], 2, 'USAGE', '--set must be a non-negative integer'],
    [['--set', '10000001'], 1, 'VALIDATION', '--set must be an integer from 0 to 10000000.'],
  ])('refuses %j (exit %i, %s)', async (flags, exitCode, code, message) => {
    const id = await accountWithUsers(1, 0);
    const refused = await cli('account', 'licenses', '--account', id, ...flags, '--json');
    expect(refused.code).toBe(exitCode);
    expect(refused.json).toEqual({ error: { code, message } });
  });

  it('answers NOT_FOUND for an account that does not exist', async () => {
    const missing = await cli('account', 'licenses', '--account', '6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e', '--json');
    expect(missing.code).toBe(1);
    expect(missing.json.error.code).toBe('NOT_FOUND');
  });
});
