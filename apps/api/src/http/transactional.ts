import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
// the one place of the app that declares @Journal: JournaledChange pairs it with its transaction
// eslint-disable-next-line no-restricted-imports
import { Journal, JournalAction, JournalObject, JournalOptions } from '@twofold/journal';
import { Db } from '@twofold/persistence';
import { from, lastValueFrom, Observable } from 'rxjs';

/** Opens the handler's transaction: committed when it returns, rolled back when it throws. */
@Injectable()
export class TransactionInterceptor implements NestInterceptor {
  constructor(private readonly db: Db) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return from(this.db.transaction(() => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}

/**
 * The handler, its parsers and everything it writes run in one database transaction, for a change that
 * is not journaled (a journaled one is a JournaledChange, which includes this). The transaction is put outside every other interceptor of the handler,
 * whatever the order the decorators are written in, so that @Journal always runs inside it.
 */
export function Transactional(): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const others: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [TransactionInterceptor, ...others], handler);
    return descriptor;
  };
}

/**
 * A change the journal records: the handler, its parsers and everything it writes run in one
 * transaction (@Transactional) with its journal event (@Journal), so the change and its event commit
 * or roll back together, and a refusal is journaled once the transaction has rolled back. The app
 * declares journaled handlers with this decorator only (lint refuses `Journal` imported elsewhere in
 * apps/api), so a journaled change cannot be written without its transaction.
 */
export function JournaledChange<O extends JournalObject>(object: O, action: JournalAction<O>, options?: JournalOptions): MethodDecorator {
  return applyDecorators(Transactional(), Journal(object, action, options));
}
