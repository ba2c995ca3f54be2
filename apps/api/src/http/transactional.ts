import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
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
 * The handler, its parsers and everything it writes run in one database transaction. A @Journal
 * handler must be @Transactional: its event commits with the change (JournalInterceptor refuses to run
 * outside a transaction). The transaction is put outside every other interceptor of the handler,
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
