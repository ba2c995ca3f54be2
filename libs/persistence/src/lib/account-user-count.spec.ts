import { AccountId } from '@twofold/domain';
import { randomBytes } from 'node:crypto';
import { AccountsRepository, UsersRepository } from './repositories';
import { SecretCipher } from './secret-cipher';
import { Db } from './transaction-context';
import { createTestDatabase, TestDatabase } from '../testing/test-database';
import { newAccount, newUser } from '../testing/factories';

/** accounts.user_count is kept by a trigger on users; the licence check and GET /users/count read it. */
describe('the user count of an account', () => {
  let database: TestDatabase;
  let db: Db;
  const userCount = async (accountId: AccountId) => (await new AccountsRepository(db).findById(accountId))?.userCount;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
  });
  afterAll(() => database.drop());

  it('follows inserts and deletes of users, in their transaction, per account', async () => {
    const cipher = new SecretCipher(randomBytes(32));
    const { account } = await newAccount(db, cipher);
    const { account: other } = await newAccount(db, cipher, { name: 'Other' });
    const users = await Promise.all(['a', 'b', 'c'].map((identity) => newUser(db, account.id, identity)));
    await newUser(db, other.id, 'a');
    expect(await userCount(account.id)).toBe(3);
    await new UsersRepository(db).delete(account.id, users[0].id);
    expect(await userCount(account.id)).toBe(2);
    expect(await userCount(other.id)).toBe(1);
    await db
      .transaction(async () => {
        await newUser(db, account.id, 'rolled-back');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await userCount(account.id)).toBe(2);
    expect(await userCount(account.id)).toBe(await new UsersRepository(db).count(account.id));
  });

  it('is counted anew for the users that existed before the migration', async () => {
    const { account } = await newAccount(db, new SecretCipher(randomBytes(32)), { name: 'Before' });
    await newUser(db, account.id, 'x');
    await newUser(db, account.id, 'y');
    await database.dataSource.query('UPDATE accounts SET user_count = 0 WHERE id = $1', [account.id]);
    // undo down to (and including) the user-count migration, then apply everything again
    const lastApplied = async () =>
      ((await database.dataSource.query('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1')) as Array<{ name: string }>)[0].name;
    let undone = '';
    while (undone !== 'AccountUserCount1764300000000') {
      undone = await lastApplied();
      await database.dataSource.undoLastMigration({ transaction: 'each' });
    }
    await database.dataSource.runMigrations({ transaction: 'each' });
    expect(await userCount(account.id)).toBe(2);
  });
});
