import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { databaseUnavailableCode } from './database-unavailable';

/** The open transaction of the current call: its manager, and what waits for its rollback. */
interface TransactionScope {
  manager: EntityManager;
  afterRollback: (() => Promise<void>)[];
  afterCommit: (() => void)[];
}

const storage = new AsyncLocalStorage<TransactionScope>();

/**
 * One database transaction per changing request. Repositories take their EntityManager from here, so
 * a change and its journal event, written by different pieces of code, commit or roll back together.
 */
export class Db {
  constructor(readonly dataSource: DataSource) {}

  /** The transaction's manager inside `transaction()`, else the pool's. */
  manager(): EntityManager {
    return storage.getStore()?.manager ?? this.dataSource.manager;
  }

  inTransaction(): boolean {
    return storage.getStore() !== undefined;
  }

  /**
   * Runs fn in a transaction; nested calls join the outer one. When fn throws, the transaction is
   * rolled back, then the `afterRollback` work registered in it runs (outside it), then the error is
   * thrown on.
   */
  async transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    const current = storage.getStore();
    if (current) return fn(current.manager);
    const afterRollback: TransactionScope['afterRollback'] = [];
    const afterCommit: TransactionScope['afterCommit'] = [];
    const runner = this.dataSource.createQueryRunner() as QueryRunner & { releasePostgresConnection?(error?: unknown): Promise<void> };
    // set when the connection cannot be trusted any more: it is closed instead of going back to the pool
    let broken: unknown;
    try {
      await runner.startTransaction();
      const result = await storage.run({ manager: runner.manager, afterRollback, afterCommit }, () => fn(runner.manager));
      await runner.commitTransaction();
      for (const work of afterCommit) work();
      return result;
    } catch (error) {
      if (databaseUnavailableCode(error) !== undefined) {
        // a statement that timed out or lost its connection: a ROLLBACK on it would wait out one more
        // timeout before the caller hears of the outage. Closing the connection rolls back on the server.
        broken = error;
      } else if (runner.isTransactionActive) {
        await runner.rollbackTransaction().catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
      }
      // released before the work that outlives the rollback, which needs a connection of its own
      await this.release(runner, broken);
      for (const work of afterRollback) await work();
      throw error;
    } finally {
      if (!runner.isReleased) await this.release(runner, broken);
    }
  }

  private async release(runner: QueryRunner & { releasePostgresConnection?(error?: unknown): Promise<void> }, broken: unknown) {
    if (broken !== undefined && runner.releasePostgresConnection) await runner.releasePostgresConnection(broken);
    else await runner.release();
  }

  /**
   * Work that runs in this process once the current transaction has committed (at once outside a
   * transaction): what this process caches about the change is dropped before its caller is answered,
   * without waiting for the change's notification to come back from the database.
   */
  afterCommit(work: () => void): void {
    const scope = storage.getStore();
    if (scope) scope.afterCommit.push(work);
    else work();
  }

  /**
   * Work that must outlive the current transaction's rollback, and only then runs: a refused change is
   * journaled after what it wrote is undone (its event in the rolled-back transaction would be lost).
   * Nothing runs when the transaction commits.
   */
  afterRollback(work: () => Promise<void>): void {
    const scope = storage.getStore();
    if (!scope) throw new Error('afterRollback needs an open transaction');
    scope.afterRollback.push(work);
  }
}
