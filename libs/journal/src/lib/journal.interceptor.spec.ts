import { BadRequestException, CallHandler, ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountId, DomainError, ManualClock } from '@twofold/domain';
import { Db, GroupsRepository, SecretCipher } from '@twofold/persistence';
import { createTestDatabase, newAccount, TestDatabase } from '@twofold/persistence/testing';
import { randomBytes } from 'node:crypto';
import { defer, lastValueFrom } from 'rxjs';
import { Journal } from './journal.decorator';
import { journalDetails } from './journal-details';
import { JournalInterceptor } from './journal.interceptor';
import { JournalWriter } from './journal-writer';

class Handlers {
  @Journal('Group', 'Create')
  create(): void {
    /* stands for a controller method */
  }
  unjournaled(): void {
    /* a read */
  }
}

describe('JournalInterceptor: a change and its event commit or roll back together', () => {
  let database: TestDatabase;
  let db: Db;
  let interceptor: JournalInterceptor;
  let accountId: AccountId;
  const clock = new ManualClock(new Date('2026-05-20T10:00:00Z'));

  const contextFor = (handler: () => void): ExecutionContext =>
    ({
      getHandler: () => handler,
      switchToHttp: () => ({ getRequest: () => ({ user: { accountId, login: 'the-api-key' } }) }),
    }) as unknown as ExecutionContext;

  /** A handler that inserts a group, notes a detail, then optionally fails. */
  const handlerThat = (failWith?: Error): CallHandler => ({
    handle: () =>
      defer(async () => {
        await new GroupsRepository(db).insert(accountId, {
          name: `g-${randomBytes(3).toString('hex')}`,
          system: false,
          createdAt: clock.now(),
        });
        journalDetails.add({ GroupName: 'x' });
        if (failWith) throw failWith;
        return 'done';
      }),
  });

  /** The interceptor in the transaction @Transactional() opens around it (TransactionInterceptor, apps/api). */
  const inTransaction = (handler: () => void, call: CallHandler) =>
    db.transaction(() => lastValueFrom(interceptor.intercept(contextFor(handler), call), { defaultValue: undefined }));

  const groupCount = async () => (await db.dataSource.query('SELECT count(*)::int AS n FROM groups WHERE NOT system'))[0].n;
  const events = () => db.dataSource.query('SELECT object, action, subject, success, additional_fields FROM journal_events ORDER BY seq');

  beforeEach(async () => {
    database = await createTestDatabase();
    db = new Db(database.dataSource);
    interceptor = new JournalInterceptor(new Reflector(), db, new JournalWriter(db, clock));
    accountId = (await newAccount(db, new SecretCipher(randomBytes(32)))).account.id;
  });
  afterEach(() => database.drop());

  it('commits the change with a success event', async () => {
    const result = await inTransaction(Handlers.prototype.create, handlerThat());
    expect(result).toBe('done');
    expect(await groupCount()).toBe(1);
    expect(await events()).toEqual([
      { object: 'Group', action: 'Create', subject: 'the-api-key', success: true, additional_fields: { GroupName: 'x' } },
    ]);
  });

  it('rolls the change back on a business refusal and journals success: false', async () => {
    const call = inTransaction(Handlers.prototype.create, handlerThat(new DomainError('SYSTEM_GROUP', 'no')));
    await expect(call).rejects.toThrow('no');
    expect(await groupCount()).toBe(0);
    expect(await events()).toEqual([
      { object: 'Group', action: 'Create', subject: 'the-api-key', success: false, additional_fields: { GroupName: 'x' } },
    ]);
  });

  it('journals a validation refusal (HTTP 400) as a failure too', async () => {
    const call = inTransaction(Handlers.prototype.create, handlerThat(new BadRequestException('bad')));
    await expect(call).rejects.toThrow('bad');
    expect((await events()).map((e: { success: boolean }) => e.success)).toEqual([false]);
  });

  it('rolls back and writes no event at all when our own code fails', async () => {
    const call = inTransaction(Handlers.prototype.create, handlerThat(new Error('bug')));
    await expect(call).rejects.toThrow('bug');
    expect(await groupCount()).toBe(0);
    expect(await events()).toEqual([]);
  });

  it('leaves handlers without @Journal alone', async () => {
    await lastValueFrom(interceptor.intercept(contextFor(Handlers.prototype.unjournaled), handlerThat()));
    expect(await groupCount()).toBe(1);
    expect(await events()).toEqual([]);
  });

  it('refuses to run a journaled handler outside a transaction: its event could not commit with the change', async () => {
    expect(() => interceptor.intercept(contextFor(Handlers.prototype.create), handlerThat())).toThrow(
      "@Journal('Group', 'Create') needs @Transactional() on its handler",
    );
    expect(await groupCount()).toBe(0);
  });
});
