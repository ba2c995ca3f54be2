import { randomBytes } from 'node:crypto';
import { ManualClock } from '@twofold/domain';
import { Db, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import { runCli, USAGE } from './cli';
import { Provisioning } from './provisioning';

describe('operator CLI', () => {
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
    const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t) }, async () => ({
      provisioning,
      dataSource: database.dataSource,
      close: async () => undefined,
    }));
    return { code, stdout, stderr };
  }

  const events = (accountId: string) =>
    database.dataSource.query('SELECT object, action, subject, success FROM journal_events WHERE account_id = $1 ORDER BY seq', [
      accountId,
    ]);

  it('creates an account with an active Admin owner, AllUsers and API credentials, as one JSON object', async () => {
    const { code, stdout, stderr } = await cli('account', 'create', '--name', 'A', '--owner-email', 'o@a.test', '--enable-api', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const out = JSON.parse(stdout);
    expect(out).toEqual({
      account: { id: expect.any(String), name: 'A', displayName: 'A', licenses: 100 },
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

  it('marks every operator event, so that a user whose identity is `cli` cannot pass for the operator', async () => {
    const out = JSON.parse(
      (await cli('account', 'create', '--name', 'Op', '--owner-email', 'op@op.test', '--enable-api', '--json')).stdout,
    );
    await cli('api', 'rotate-secret', '--account', out.account.id, '--json');
    await cli('api', 'disable', '--account', out.account.id, '--json');
    const marked = await database.dataSource.query(
      `SELECT object, action, additional_fields->>'Source' AS source FROM journal_events WHERE account_id = $1 AND subject = 'cli' ORDER BY seq`,
      [out.account.id],
    );
    expect(marked).toEqual([
      { object: 'Employee', action: 'Create', source: 'OperatorCli' },
      { object: 'Api', action: 'Enable', source: 'OperatorCli' },
      { object: 'PublicApiSecret', action: 'Update', source: 'OperatorCli' },
      { object: 'Api', action: 'Disable', source: 'OperatorCli' },
    ]);
  });

  it('gives null credentials without --enable-api, and honours --licenses and --owner-name', async () => {
    const out = JSON.parse(
      (await cli('account', 'create', '--name', 'B', '--owner-email', 'b@b.test', '--owner-name', 'Bea', '--licenses', '7', '--json'))
        .stdout,
    );
    expect(out.api).toEqual({ enabled: false, key: null, secret: null });
    expect(out.account.licenses).toBe(7);
  });

  describe('--display-name', () => {
    const displayNameOf = async (id: string) =>
      (await database.dataSource.query('SELECT display_name FROM accounts WHERE id = $1', [id]))[0].display_name;

    it('stores the trimmed name the pages, mails and authenticator apps show; account show has it', async () => {
      const created = await cli(
        'account',
        'create',
        '--name',
        'acme',
        '--display-name',
        '  Acme Bank ',
        '--owner-email',
        'dn@acme.test',
        '--json',
      );
      expect(created.code).toBe(0);
      const out = JSON.parse(created.stdout);
      expect(out.account).toMatchObject({ name: 'acme', displayName: 'Acme Bank' });
      expect(await displayNameOf(out.account.id)).toBe('Acme Bank');
      const shown = JSON.parse((await cli('account', 'show', '--account', out.account.id, '--json')).stdout).account;
      expect(shown).toMatchObject({ name: 'acme', displayName: 'Acme Bank' });
    });

    it('account show lists the users whose identities look alike, kept apart since identities are compared by key', async () => {
      const out = JSON.parse((await cli('account', 'create', '--name', 'Lookalike', '--owner-email', 'la@acme.test', '--json')).stdout);
      const none = JSON.parse((await cli('account', 'show', '--account', out.account.id, '--json')).stdout).account;
      expect(none.identityLookAlikes).toEqual([]);
      // as the key migration leaves two users of the old schema: the younger one tagged with its id
      const [older] = await database.dataSource.query(
        `INSERT INTO users (account_id, identity, identity_key, source, created_at) VALUES ($1, 'STRASSE', 'strasse', 'Api', now() - interval '1 day') RETURNING id`,
        [out.account.id],
      );
      const [younger] = await database.dataSource.query(
        `INSERT INTO users (account_id, identity, identity_key, collision_tag, source, created_at) VALUES ($1, 'straße', 'strasse', 'tag', 'Api', now()) RETURNING id`,
        [out.account.id],
      );
      await database.dataSource.query(`UPDATE users SET collision_tag = id::text WHERE id = $1`, [younger.id]);
      const shown = JSON.parse((await cli('account', 'show', '--account', out.account.id, '--json')).stdout).account;
      expect(shown.identityLookAlikes).toEqual([
        {
          identityKey: 'strasse',
          users: [
            { id: older.id, identity: 'STRASSE' },
            { id: younger.id, identity: 'straße' },
          ],
        },
      ]);
    });

    it("leaves it unset without the flag: the account's name is shown", async () => {
      const out = JSON.parse((await cli('account', 'create', '--name', 'Plain', '--owner-email', 'dn@plain.test', '--json')).stdout);
      expect(out.account.displayName).toBe('Plain');
      expect(await displayNameOf(out.account.id)).toBeNull();
    });

    it.each([
      ['Acme: Bank', "--display-name must not contain ':'."],
      ['x'.repeat(65), '--display-name must be at most 64 characters.'],
      ['   ', '--display-name must not be empty.'],
    ])('refuses %p naming the rule; nothing is created', async (displayName, message) => {
      const before = await database.dataSource.query('SELECT count(*)::int AS n FROM accounts');
      const refused = await cli('account', 'create', '--name', 'R', '--display-name', displayName, '--owner-email', 'dn@r.test', '--json');
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stderr)).toEqual({ error: { code: 'VALIDATION', message } });
      expect(await database.dataSource.query('SELECT count(*)::int AS n FROM accounts')).toEqual(before);
    });
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
    const created = JSON.parse(
      (await cli('account', 'create', '--name', 'D', '--owner-email', 'd@d.test', '--enable-api', '--json')).stdout,
    );
    const branded = JSON.parse(
      (await cli('account', 'create', '--name', 'E', '--display-name', 'E Bank', '--owner-email', 'e@e.test', '--json')).stdout,
    );
    const list = JSON.parse((await cli('account', 'list', '--json')).stdout);
    const listed = (id: string) => list.accounts.find((a: { id: string }) => a.id === id);
    expect(listed(created.account.id)).toMatchObject({ name: 'D', displayName: 'D', apiEnabled: true });
    expect(listed(branded.account.id)).toMatchObject({ name: 'E', displayName: 'E Bank', apiEnabled: false });
    const show = await cli('account', 'show', '--account', created.account.id, '--json');
    const shown = JSON.parse(show.stdout).account;
    expect(shown).toMatchObject({ id: created.account.id, name: 'D', api: { enabled: true, key: created.api.key } });
    expect(shown.administrators).toEqual([
      { id: created.owner.id, identity: 'd@d.test', name: 'd@d.test', role: 'Admin', status: 'Active' },
    ]);
    expect(show.stdout).not.toContain(created.api.secret);
  });

  describe('token-key rotate', () => {
    const keys = () =>
      database.dataSource.query(
        'SELECT kid, private_key_enc, public_jwk, created_at, retired_at FROM token_signing_keys ORDER BY created_at, retired_at, kid',
      ) as Promise<
        { kid: string; private_key_enc: Buffer; public_jwk: Record<string, string>; created_at: Date; retired_at: Date | null }[]
      >;

    it('makes a new key the active one and retires the old one, printing its kid', async () => {
      expect(USAGE).toContain('token-key rotate');
      await database.dataSource.query('DELETE FROM token_signing_keys');
      const first = await cli('token-key', 'rotate', '--json');
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout.trim().split('\n')).toHaveLength(1);
      const { kid } = JSON.parse(first.stdout);
      // the first key has no predecessor to wait for: it signs at once
      expect(JSON.parse(first.stdout)).toEqual({
        kid: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        signsFrom: '2026-05-20T10:00:00.000Z',
      });
      const [stored] = await keys();
      expect(stored).toMatchObject({ kid, retired_at: null, public_jwk: { kty: 'RSA', kid, alg: 'RS256', use: 'sig', e: 'AQAB' } });
      expect(stored.public_jwk).not.toHaveProperty('d');
      // 2048-bit modulus, base64url without padding
      expect(Buffer.from(stored.public_jwk['n'], 'base64url')).toHaveLength(256);
      // the private key is stored encrypted
      expect(cipher.decryptText('token.signing-key', stored.private_key_enc)).toContain('-----BEGIN PRIVATE KEY-----');
      expect(Buffer.from(stored.private_key_enc).toString('latin1')).not.toContain('PRIVATE KEY');

      const second = JSON.parse((await cli('token-key', 'rotate', '--now', '--json')).stdout);
      expect(second.kid).not.toBe(kid);
      const after = await keys();
      expect(after.map((k) => [k.kid, k.retired_at?.toISOString() ?? null])).toEqual([
        [kid, '2026-05-20T10:00:00.000Z'],
        [second.kid, null],
      ]);
      expect((await cli('token-key', 'rotate', '--now')).stdout).toMatch(/^kid: [A-Za-z0-9_-]{43}\nsignsFrom: 2026-05-20T10:00:00.000Z\n$/);
    });

    it('publishes the next key ahead: the old one signs until TOKEN_KEY_PUBLISH_AHEAD (default 24 h) has passed', async () => {
      await database.dataSource.query('DELETE FROM token_signing_keys');
      const withEnv = async (env: NodeJS.ProcessEnv, ...argv: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await runCli(
          argv,
          { out: (t) => (stdout += t), err: (t) => (stderr += t) },
          async () => ({ provisioning, dataSource: database.dataSource, close: async () => undefined }),
          env,
        );
        return { code, stdout, stderr };
      };
      const first = JSON.parse((await withEnv({}, 'token-key', 'rotate', '--json')).stdout);
      const second = JSON.parse((await withEnv({}, 'token-key', 'rotate', '--json')).stdout);
      expect(second.signsFrom).toBe('2026-05-21T10:00:00.000Z');
      expect((await keys()).map((k) => [k.kid, k.retired_at?.toISOString() ?? null])).toEqual([
        [first.kid, '2026-05-21T10:00:00.000Z'],
        [second.kid, null],
      ]);
      const third = JSON.parse((await withEnv({ TOKEN_KEY_PUBLISH_AHEAD: '90m' }, 'token-key', 'rotate', '--json')).stdout);
      expect(third.signsFrom).toBe('2026-05-20T11:30:00.000Z');
      const refused = await withEnv({ TOKEN_KEY_PUBLISH_AHEAD: 'soon' }, 'token-key', 'rotate', '--json');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('TOKEN_KEY_PUBLISH_AHEAD');
      // an emergency: every key still signing stops now
      await withEnv({}, 'token-key', 'rotate', '--now', '--json');
      const retired = (await keys()).filter((k) => k.retired_at !== null).map((k) => k.retired_at?.toISOString());
      expect(retired).toEqual(['2026-05-20T10:00:00.000Z', '2026-05-20T10:00:00.000Z', '2026-05-20T10:00:00.000Z']);
    });

    it('deletes keys retired so long ago that every token they signed has expired', async () => {
      await database.dataSource.query('DELETE FROM token_signing_keys');
      const clock = new ManualClock(new Date('2026-05-20T10:00:00Z'));
      const later = new Provisioning(new Db(database.dataSource), cipher, clock);
      const first = await later.rotateTokenKey();
      const second = await later.rotateTokenKey();
      clock.advance(60 * 60_000);
      const third = await later.rotateTokenKey();
      expect((await keys()).map((k) => k.kid)).toEqual([first.kid, second.kid, third.kid]);
      clock.advance(10 * 60_000);
      const fourth = await later.rotateTokenKey();
      // the first was retired at 10:00: gone after 1 h plus the grace; the second, retired at 11:00, stays
      expect((await keys()).map((k) => k.kid)).toEqual([second.kid, third.kid, fourth.kid]);
    });

    it('lets two rotations at once both finish, one after the other, with one active key', async () => {
      await database.dataSource.query('DELETE FROM token_signing_keys');
      const [a, b] = await Promise.all([provisioning.rotateTokenKey(), provisioning.rotateTokenKey()]);
      const all = await keys();
      expect(all.map((k) => k.kid).sort()).toEqual([a.kid, b.kid].sort());
      expect(all.filter((k) => k.retired_at === null)).toHaveLength(1);
    });
  });

  it.each([
    [['account', 'create', '--owner-email', 'x@x.test'], 2, '--name is required'],
    [['account', 'create', '--name', 'X', '--owner-email', 'x@x.test', '--licenses=-3'], 2, '--licenses must be a non-negative integer'],
    [
      ['account', 'create', '--name', 'X', '--owner-email', 'x@x.test', '--licenses', 'many'],
      2,
      '--licenses must be a non-negative integer',
    ],
    [['account', 'create', '--name', 'X', '--owner-email', 'not-an-email'], 1, '--owner-email must be an e-mail address.'],
    [['api', 'enable', '--account', '00000000-0000-0000-0000-000000000000'], 1, 'Account not found.'],
    [['api', 'enable', '--account', 'nope'], 1, 'Account not found.'],
    [['frobnicate'], 2, 'unknown command: frobnicate'],
    [['account', 'list', '--bogus'], 2, "Unknown option '--bogus'"],
    [['account', 'list', '--name', 'X'], 2, "account list has no option '--name'"],
    [['account'], 2, 'unknown command: account'],
    [[], 2, 'no command given'],
    [['migrate', 'revert'], 2, 'add --yes to confirm'],
  ])('refuses %p with exit %i on stderr', async (argv, exitCode, message) => {
    const { code, stdout, stderr } = await cli(...(argv as string[]), '--json');
    expect(code).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    // under --json: exactly one JSON object, a code and the message, no stack
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    const { error } = JSON.parse(stderr);
    expect(error).toEqual({
      code: exitCode === 2 ? 'USAGE' : expect.stringMatching(/^(VALIDATION|NOT_FOUND)$/),
      message: expect.any(String),
    });
    expect(error.message).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /);

    const text = await cli(...(argv as string[]));
    expect(text.code).toBe(exitCode);
    expect(text.stderr).toBe(`twofold-cli: ${error.message}${exitCode === 2 ? ' (see --help)' : ''}\n`);
  });

  it('answers an unreachable database with one line (one JSON object under --json), exit 1', async () => {
    const unreachable = async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:1');
    };
    let stderr = '';
    const code = await runCli(['account', 'list', '--json'], { out: () => undefined, err: (t) => (stderr += t) }, unreachable);
    expect(code).toBe(1);
    expect(JSON.parse(stderr)).toEqual({
      error: { code: 'DATABASE_UNAVAILABLE', message: 'cannot open the database: connect ECONNREFUSED 127.0.0.1:1' },
    });
  });

  describe('--help', () => {
    const commands = [
      'account create',
      'account list',
      'account show',
      'api enable',
      'api disable',
      'api rotate-secret',
      'token-key rotate',
      'migrate status',
      'migrate run',
      'migrate revert',
      'telegram status',
      'telegram set-webhook',
      'telegram delete-webhook',
    ];

    it.each([['--help'], ['-h'], ['--help', '--json'], ['account', '--help'], ['migrate', '-h']])(
      '%p prints the list of every command as text on stdout, exit 0',
      async (...argv) => {
        const { code, stdout, stderr } = await cli(...argv);
        expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
        expect(stdout).toBe(USAGE + '\n');
        for (const command of commands) expect(USAGE).toContain(`  ${command}`);
      },
    );

    it.each(commands)('%s --help shows its usage, flags and an example, and does nothing', async (command) => {
      const connect = jest.fn();
      let stdout = '';
      const code = await runCli([...command.split(' '), '--help', '--json'], { out: (t) => (stdout += t), err: () => undefined }, connect);
      expect(code).toBe(0);
      expect(connect).not.toHaveBeenCalled();
      expect(stdout).toMatch(new RegExp(`^Usage: npm run --silent cli -- ${command} `));
      expect(stdout).toContain('--json');
      expect(stdout).toContain(`Example:\n  npm run --silent cli -- ${command}`);
      expect(() => JSON.parse(stdout)).toThrow();
    });

    it('lists the flags of account create', async () => {
      const { stdout } = await cli('account', 'create', '-h');
      for (const flag of [
        '--name NAME',
        '[--display-name NAME]',
        '--owner-email EMAIL',
        '[--owner-name NAME]',
        '[--licenses N]',
        '[--enable-api]',
        '[--allow-second-account]',
      ]) {
        expect(stdout).toContain(flag);
      }
    });
  });

  describe('account create for an owner who already owns an account', () => {
    it('refuses, naming the account, case-insensitively; nothing is created', async () => {
      const first = JSON.parse((await cli('account', 'create', '--name', 'F', '--owner-email', 'f@f.test', '--json')).stdout);
      const before = await database.dataSource.query('SELECT count(*)::int AS n FROM accounts');
      const again = await cli('account', 'create', '--name', 'F2', '--owner-email', 'F@F.test', '--json');
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(JSON.parse(again.stderr)).toEqual({
        error: {
          code: 'OWNER_HAS_ACCOUNT',
          message: `F@F.test already owns account ${first.account.id}: add --allow-second-account to create another one for them.`,
        },
      });
      expect(await database.dataSource.query('SELECT count(*)::int AS n FROM accounts')).toEqual(before);
    });

    it('creates a second one with --allow-second-account, and says so', async () => {
      const first = JSON.parse((await cli('account', 'create', '--name', 'G', '--owner-email', 'g@g.test', '--json')).stdout);
      const second = await cli('account', 'create', '--name', 'G2', '--owner-email', 'g@g.test', '--allow-second-account', '--json');
      expect(second.code).toBe(0);
      const out = JSON.parse(second.stdout);
      expect(out.account.id).not.toBe(first.account.id);
      expect(out.ownerAlsoOwns).toEqual([first.account.id]);
      // the flag is harmless for a new owner: the usual shape
      const fresh = JSON.parse(
        (await cli('account', 'create', '--name', 'H', '--owner-email', 'h@h.test', '--allow-second-account', '--json')).stdout,
      );
      expect(Object.keys(fresh)).toEqual(['account', 'owner', 'api']);
    });

    it('does not count an administrator with another role as an owner', async () => {
      const first = JSON.parse((await cli('account', 'create', '--name', 'I', '--owner-email', 'i@i.test', '--json')).stdout);
      await database.dataSource.query(`UPDATE administrators SET role = 'Support 1' WHERE id = $1`, [first.owner.id]);
      expect((await cli('account', 'create', '--name', 'I2', '--owner-email', 'i@i.test', '--json')).code).toBe(0);
    });

    it('lets only one of two creations at once for one owner through', async () => {
      const create = () => provisioning.createAccount({ name: 'J', ownerEmail: 'j@j.test', enableApi: false });
      const results = await Promise.allSettled([create(), create()]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    });
  });
});
