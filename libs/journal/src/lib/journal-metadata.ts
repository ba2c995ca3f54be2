import { JournalFieldName, JournalFields, JournalObject } from './journal-events';

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

/**
 * A `fromRequest` that journals path parameters as sent, each under its field
 * (`journalPath({ id: 'GroupId' })`): what a call names is recorded even when its path is refused;
 * the service replaces each with the record it found.
 */
export function journalPath(
  fields: Readonly<Record<string, JournalFieldName>>,
): (request: JournalRequest) => JournalFields<string | undefined> {
  return ({ params }) => Object.fromEntries(Object.entries(fields).map(([param, field]) => [field, params[param]]));
}
