import { JournalFields, JournalObject } from './journal-events';

/**
 * What @Journal writes on a handler and JournalInterceptor reads back: the decorator binds the
 * interceptor, so the two share this module rather than importing each other.
 */
export const JOURNAL_METADATA = 'twofold:journal';

export interface JournalMetadata {
  object: JournalObject;
  action: string;
  /** what the request names (the path's user, the identity asked for), journaled even when its body is refused */
  fromRequest?: (request: JournalRequest) => JournalFields<string | undefined>;
}

/** The raw request, as a handler's parsers receive it. */
export interface JournalRequest {
  body: unknown;
  params: Readonly<Record<string, string | undefined>>;
}
