import { randomBytes } from 'node:crypto';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { AccountId } from '@twofold/domain';
import { createTestDatabase, newAccount, newResource, TestDatabase } from '../../testing';
import { SecretCipher } from '../secret-cipher';
import { Db } from '../transaction-context';
import { ResourcesRepository } from './resources.repository';

/** The statements sent while `work` runs (every TypeORM query passes PostgresQueryRunner.query). */
async function recordStatements(work: () => Promise<unknown>): Promise<string[]> {
  const original = PostgresQueryRunner.prototype.query;
  const statements: string[] = [];
  PostgresQueryRunner.prototype.query = function (this: PostgresQueryRunner, ...args: Parameters<typeof original>) {
    statements.push(args[0]);
    return original.apply(this, args);
  } as typeof original;
  try {
    await work();
    return statements;
  } finally {
    PostgresQueryRunner.prototype.query = original;
  }
}

describe('deleting a resource deletes its history in statements of bounded rows', () => {
  let database: TestDatabase;
  let db: Db;
  let accountId: AccountId;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    accountId = (await newAccount(db, new SecretCipher(randomBytes(32)))).account.id;
  });
  afterAll(() => database.drop());

  const newResourceWithRequests = async (name: string, requests: number) => {
    const { resource } = await newResource(db, new SecretCipher(randomBytes(32)), accountId, name);
    await database.dataSource.query(
      `INSERT INTO access_requests (account_id, resource_id, identity, language, channel, status, failed_attempts, created_at)
       SELECT $1, $2, 'user' || g, 'en', 'ra', 'Granted', 0, now() FROM generate_series(1, $3) g`,
      [accountId, resource.id, requests],
    );
    return resource.id;
  };
  const requestsOf = async (resourceId: string) =>
    (await database.dataSource.query(`SELECT count(*)::int AS n FROM access_requests WHERE resource_id = $1`, [resourceId]))[0].n;

  it('deletes 7 requests 3 at a time, then the resource; another resource keeps its history', async () => {
    const doomed = await newResourceWithRequests('Doomed', 7);
    const kept = await newResourceWithRequests('Kept', 2);

    const statements = await recordStatements(() => new ResourcesRepository(db, 3).delete(accountId, doomed));

    expect(statements.filter((sql) => /DELETE FROM access_requests/.test(sql))).toHaveLength(3);
    expect(await requestsOf(doomed)).toBe(0);
    expect(await new ResourcesRepository(db).findById(accountId, doomed)).toBeNull();
    expect(await requestsOf(kept)).toBe(2);
  });

  it('deletes nothing of another account: the resource id alone is not enough', async () => {
    const kept = await newResourceWithRequests('Theirs', 2);
    const other = (await newAccount(db, new SecretCipher(randomBytes(32)))).account.id;

    await new ResourcesRepository(db, 3).delete(other, kept);

    expect(await requestsOf(kept)).toBe(2);
    expect(await new ResourcesRepository(db).findById(accountId, kept)).not.toBeNull();
  });
});
