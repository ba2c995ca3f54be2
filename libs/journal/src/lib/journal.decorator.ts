import { SetMetadata } from '@nestjs/common';
import { JournalAction, JournalObject } from './journal-events';

export const JOURNAL_METADATA = 'twofold:journal';

export interface JournalMetadata {
  object: JournalObject;
  action: string;
}

/** Marks a handler as a change: it runs in one transaction with its journal event (JournalInterceptor). */
export function Journal<O extends JournalObject>(object: O, action: JournalAction<O>): MethodDecorator {
  return SetMetadata(JOURNAL_METADATA, { object, action } satisfies JournalMetadata);
}
