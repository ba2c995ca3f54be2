import { AccountId } from '@twofold/domain';
import { DataSource } from 'typeorm';
import { createEmptyDatabase } from '../testing';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';
import { UsersIdentityKey1765000000001 } from './migrations/1765000000001-users-identity-key';
import { UsersRepository } from './repositories';
import { Db } from './transaction-context';

/**
 * Identities compared by key (NFKC, full case folding, no trailing dots), and the migration that
 * keys existing users: users whose identities now share a key are kept apart and reported, never merged.
 */
describe('the identity key migration and look-alike users', () => {
  let empty: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let dataSource: DataSource;
  let users: UsersRepository;
  let accountId: AccountId;
  let otherAccount: AccountId;
  const ids = new Map<string, string>();

  const source = (migrations: typeof ALL_MIGRATIONS) =>
    new DataSource({ type: 'postgres', url: empty.url, entities: ALL_ENTITIES, migrations, migrationsTableName: 'schema_migrations' });

  beforeAll(async () => {
    empty = await createEmptyDatabase();
    // the schema as it was before the key: users unique by lower(identity) only
    const before = source(ALL_MIGRATIONS.slice(0, ALL_MIGRATIONS.indexOf(UsersIdentityKey1765000000001)));
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    [accountId, otherAccount] = (
      await before.query(`INSERT INTO accounts (name, licenses, created_at) VALUES ('A', 100, now()), ('B', 100, now()) RETURNING id`)
    ).map((row: { id: AccountId }) => row.id);
    let second = 0;
    const add = async (account: AccountId, identity: string) => {
      second += 1;
      const [row] = await before.query(
        `INSERT INTO users (account_id, identity, source, created_at) VALUES ($1, $2, 'Api', $3) RETURNING id`,
        [account, identity, new Date(Date.UTC(2026, 0, 1, 0, 0, second))],
      );
      ids.set(`${account === accountId ? 'A' : 'B'}:${identity}`, row.id);
    };
    // look-alikes the old index let in whatever the server's locale: full case folding (ß, final sigma),
    // full-width, decomposed, the Kelvin sign, a trailing dot
    for (const identity of ['STRASSE', 'straße', 'jane', 'ｊａｎｅ', 'jane.', 'e\u0301mile', 'émile', '\u212Aate', 'bob'])
      await add(accountId, identity);
    await add(otherAccount, 'ΣΑΣ');
    await before.destroy();

    dataSource = source(ALL_MIGRATIONS);
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    users = new UsersRepository(new Db(dataSource));
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await empty?.drop();
  });

  it('keys every user; in each group of look-alikes the oldest keeps the plain key, the younger ones are tagged', async () => {
    const rows: { identity: string; identity_key: string; collision_tag: string; id: string }[] = await dataSource.query(
      `SELECT id, identity, identity_key, collision_tag FROM users WHERE account_id = $1 ORDER BY created_at`,
      [accountId],
    );
    expect(rows.map(({ identity, identity_key, collision_tag }) => [identity, identity_key, collision_tag === '' ? '' : 'tagged'])).toEqual(
      [
        ['STRASSE', 'strasse', ''],
        ['straße', 'strasse', 'tagged'],
        ['jane', 'jane', ''],
        ['ｊａｎｅ', 'jane', 'tagged'],
        ['jane.', 'jane', 'tagged'],
        ['e\u0301mile', 'émile', ''],
        ['émile', 'émile', 'tagged'],
        ['\u212Aate', 'kate', ''],
        ['bob', 'bob', ''],
      ],
    );
    for (const row of rows.filter((row) => row.collision_tag !== '')) expect(row.collision_tag).toBe(row.id);
    const [other] = await dataSource.query(`SELECT identity_key, collision_tag FROM users WHERE account_id = $1`, [otherAccount]);
    expect(other).toEqual({ identity_key: 'σας', collision_tag: '' });
  });

  it('a user of a group of look-alikes is found by its exact identity only, never by another spelling', async () => {
    expect((await users.findByIdentity(accountId, 'STRASSE'))?.id).toBe(ids.get('A:STRASSE'));
    expect((await users.findByIdentity(accountId, 'straße'))?.id).toBe(ids.get('A:straße'));
    expect(await users.findByIdentity(accountId, 'Strasse')).toBeNull();
    expect((await users.findByIdentity(accountId, 'jane'))?.id).toBe(ids.get('A:jane'));
    expect(await users.findByIdentity(accountId, 'JANE')).toBeNull();
    expect((await users.lockForCodeCheck(accountId, { identity: 'ｊａｎｅ' }))?.user.id).toBe(ids.get('A:ｊａｎｅ'));
  });

  it('any other user is found by any spelling of its key', async () => {
    expect((await users.findByIdentity(accountId, 'BOB'))?.id).toBe(ids.get('A:bob'));
    expect((await users.findByIdentity(accountId, 'ｂｏｂ'))?.id).toBe(ids.get('A:bob'));
    expect((await users.findByIdentity(accountId, 'bob.'))?.id).toBe(ids.get('A:bob'));
    expect((await users.findByIdentity(accountId, 'KATE'))?.id).toBe(ids.get('A:\u212Aate'));
    expect((await users.findByIdentity(otherAccount, 'σας'))?.id).toBe(ids.get('B:ΣΑΣ'));
    expect((await users.findByIdentity(otherAccount, 'Σας'))?.id).toBe(ids.get('B:ΣΑΣ'));
  });

  it('no new look-alike can be made: a new user or a rename to a key taken is refused by the unique index', async () => {
    const insert = (identity: string) =>
      users.insert(accountId, { identity, name: null, email: null, source: 'Api', createdAt: new Date() });
    for (const identity of ['Straße', 'Ｂｏｂ', 'bob.', 'KATE', 'Jane'])
      await expect(insert(identity)).rejects.toMatchObject({ driverError: { code: '23505', constraint: 'users_account_identity' } });
    const renamed = ids.get('A:straße') as string;
    await expect(users.update(accountId, renamed, { identity: 'BOB' })).rejects.toMatchObject({ driverError: { code: '23505' } });
    // renamed to a free identity, a tagged user leaves its group and is found by any spelling again
    await users.update(accountId, renamed, { identity: 'Straße Zwei' });
    expect((await users.findByIdentity(accountId, 'STRASSE ZWEI'))?.id).toBe(renamed);
  });
});
