import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';

const storage = new AsyncLocalStorage<EntityManager>();

/**
 * One database transaction per changing request. Repositories take their EntityManager from here, so
 * a change and its journal event, written by different pieces of code, commit or roll back together.
 */
export class Db {
  constructor(readonly dataSource: DataSource) {}

  /** The transaction's manager inside `transaction()`, else the pool's. */
  manager(): EntityManager {
    return storage.getStore() ?? this.dataSource.manager;
  }

  inTransaction(): boolean {
    return storage.getStore() !== undefined;
  }

  /** Runs fn in a transaction; nested calls join the outer one. */
  async transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    const current = storage.getStore();
    if (current) return fn(current);
    return this.dataSource.transaction((manager) => storage.run(manager, () => fn(manager)));
  }
}
