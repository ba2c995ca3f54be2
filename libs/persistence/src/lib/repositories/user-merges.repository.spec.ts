import { randomBytes } from 'node:crypto';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { AccountId } from '@twofold/domain';
import { createTestDatabase, newAccount, newUser, TestDatabase } from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { UserMergesRepository } from './user-merges.repository';

/** The statements sent while `work` runs (every TypeORM query passes PostgresQueryRunner.query). */
async function recordStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const original = PostgresQueryRunner.prototype.query;
  const statements: string[] = [];
  PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: Parameters<typeof original>) {
    statements.push(args[0]);
    return original.apply(this, args);
  } as typeof original;
  try {
    return { result: await work(), statements };
  } finally {
    PostgresQueryRunner.prototype.query = original;
  }
}

describe('the identity-format apply reads, locks, updates and deletes users in statements of bounded users', () => {
  let database: TestDatabase;
  let db: Db;
  let accountId: AccountId;
  let ids: string[];
  const merges = () => new UserMergesRepository(db, 2);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    const cipher = new SecretCipher(randomBytes(32));
    accountId = (await newAccount(db, cipher)).account.id;
    ids = [];
    for (const identity of ['a', 'b', 'c', 'd', 'e']) ids.push((await newUser(db, accountId, identity)).id);
    const other = (await newAccount(db, cipher)).account.id;
    await newUser(db, other, 'a');
    ids.sort();
  });
  afterAll(() => database.drop());

  it('reads every user of the account in id order, 2 a statement, and locks them the same way', async () => {
    const read = await recordStatements(() => merges().users(accountId));
    expect(read.result.map((u) => u.id)).toEqual(ids);
    expect(read.statements.filter((sql) => /FROM users u/.test(sql))).toHaveLength(3);
    const locked = await recordStatements(() => db.transaction(() => merges().lockUsers(accountId)));
    expect(locked.result.map((u) => u.id)).toEqual(ids);
    expect(locked.statements.filter((sql) => /FOR UPDATE/.test(sql))).toHaveLength(3);
  });

  it('updates 3 users in 2 statements and deletes 3 in 2, leaving the others', async () => {
    const users = await merges().users(accountId);
    const renamed = users.slice(0, 3).map((u) => ({ ...u, identity: `${u.identity}-renamed` }));
    const updated = await recordStatements(() => merges().updateUsers(accountId, renamed));
    expect(updated.statements.filter((sql) => /UPDATE users u/.test(sql))).toHaveLength(2);
    expect((await merges().users(accountId)).filter((u) => u.identity.endsWith('-renamed'))).toHaveLength(3);

    const deleted = await recordStatements(() => merges().deleteUsers(accountId, ids.slice(0, 3)));
    expect(deleted.statements.filter((sql) => /DELETE FROM users/.test(sql))).toHaveLength(2);
    expect((await merges().users(accountId)).map((u) => u.id)).toEqual(ids.slice(3));
  });
});
