import { NotFound } from './domain-error';

declare const recordIdBrand: unique symbol;

/**
 * The id of a record a request names (a user, an administrator, a group, a resource, …): a UUID in
 * lower case. Only parseRecordId makes one, so a service that takes a RecordId is never handed the raw
 * text of a path or a body.
 */
export type RecordId = string & { readonly [recordIdBrand]: true };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(raw: unknown): raw is string {
  return typeof raw === 'string' && UUID_PATTERN.test(raw);
}

/** Ids are UUIDs; anything else (or nothing) cannot name a row, so it is "`what` not found" rather than a database error. */
export function parseRecordId(raw: string | undefined, what: string): RecordId {
  if (!isUuid(raw)) throw new NotFound(what);
  return raw.toLowerCase() as RecordId;
}

/** For an id known to name a record from outside the type system: a row's own id, a test's fixtures. */
export function asRecordId(value: string): RecordId {
  return value as RecordId;
}

/** @deprecated parseRecordId; kept while apps/api/src/access/ calls it. */
export function requireUuid(id: string, what: string): string {
  return parseRecordId(id, what);
}
