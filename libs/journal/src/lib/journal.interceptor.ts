import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccountId, DomainError } from '@twofold/domain';
import { Db } from '@twofold/persistence';
import { from, lastValueFrom, Observable } from 'rxjs';
import { JOURNAL_METADATA, JournalMetadata, JournalRequest } from './journal-metadata';
import { journalDetails } from './journal-details';
import { JournalWriter } from './journal-writer';
import { JournalObject } from './journal-events';

/** What the interceptor needs to know of the caller; the API's auth guards put it on request.user. */
export interface JournalPrincipal {
  accountId: AccountId;
  login: string;
  /** an administrator acting through the console: named in every event, unless the event names an administrator itself */
  administrator?: { id: string; identity: string };
}

/** A refusal of the caller's input or of a business rule, as opposed to our own failure. */
function isRefusal(error: unknown): boolean {
  if (error instanceof DomainError) return true;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return status >= 400 && status < 500 && status !== 401 && status !== 429;
  }
  return false;
}

/**
 * For handlers marked @Journal(object, action), which must be @Transactional() too: the success event
 * is written in the handler's transaction, so the change and its event commit together; a refusal is
 * journaled with success: false once the transaction has rolled back whatever the call changed.
 */
@Injectable()
export class JournalInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly db: Db,
    private readonly writer: JournalWriter,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const meta = this.reflector.get<JournalMetadata | undefined>(JOURNAL_METADATA, context.getHandler());
    if (!meta) return next.handle();
    if (!this.db.inTransaction()) throw new Error(`@Journal('${meta.object}', '${meta.action}') needs @Transactional() on its handler`);
    const request = context.switchToHttp().getRequest<{ user?: JournalPrincipal } & Partial<JournalRequest>>();
    const principal = request.user;
    if (!principal) throw new Error('@Journal handler without an authenticated principal');
    return from(this.run(meta, principal, { body: request.body, params: request.params ?? {} }, next));
  }

  private async run(meta: JournalMetadata, principal: JournalPrincipal, request: JournalRequest, next: CallHandler): Promise<unknown> {
    const details: Record<string, string> = {};
    const actor = principal.administrator;
    const entry = (success: boolean) => ({
      object: meta.object as JournalObject,
      action: meta.action as never,
      subject: principal.login,
      success,
      additionalFields: actor ? { EmployeeId: actor.id, EmployeeIdentity: actor.identity, ...details } : details,
    });
    try {
      return await journalDetails.run(details, async () => {
        const { fromRequest } = meta;
        if (fromRequest) journalDetails.add(fromRequest(request));
        const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
        await this.writer.record(principal.accountId, entry(true));
        return result;
      });
    } catch (error) {
      if (isRefusal(error)) this.db.afterRollback(() => this.writer.record(principal.accountId, entry(false)));
      throw error;
    }
  }
}
