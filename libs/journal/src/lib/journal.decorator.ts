import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { JournalAction, JournalObject } from './journal-events';
import { JOURNAL_METADATA, JournalMetadata } from './journal-metadata';
import { JournalInterceptor } from './journal.interceptor';

export interface JournalOptions {
  fromRequest?: JournalMetadata['fromRequest'];
}

/**
 * Marks a handler as a change: it runs in one transaction with its journal event (JournalInterceptor).
 * The interceptor is bound here, to the marked handlers only, rather than globally: a handler with no
 * interceptor skips Nest's interceptor chain (an rxjs pipeline and an AsyncResource per call), which
 * the hot calls (access requests, user look-ups) do not need.
 */
export function Journal<O extends JournalObject>(object: O, action: JournalAction<O>, options: JournalOptions = {}): MethodDecorator {
  return applyDecorators(
    SetMetadata(JOURNAL_METADATA, { object, action, fromRequest: options.fromRequest } satisfies JournalMetadata),
    UseInterceptors(JournalInterceptor),
  );
}
