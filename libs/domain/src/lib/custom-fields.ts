import { InputFields } from './input';
import { ValidationFailed } from './domain-error';

export const CUSTOM_FIELD_NAME_MAX_LENGTH = 100;
export const CUSTOM_FIELD_VALUE_MAX_LENGTH = 2000;
/** A bound on one user's fields, so a client loop cannot grow a row set without end. */
export const MAX_CUSTOM_FIELDS_PER_USER = 100;

export interface CustomField {
  name: string;
  value: string;
}

const sameName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The `fields` of PUT /v2/users/{id}/customfields: an array of {name, value}. Entries with an empty
 * name are ignored; a value is a string (a number or boolean is written as text, null as '').
 */
export function parseCustomFieldUpdates(raw: unknown): CustomField[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('fields must be an array of {name, value}.');
  const updates: CustomField[] = [];
  for (const item of raw) {
    const entry = InputFields.of(item, 'Each of fields must be an object {name, value}.');
    const [name, value] = [entry.get('name'), entry.get('value')];
    if (name === undefined || name === null || (typeof name === 'string' && name.trim() === '')) continue;
    if (typeof name !== 'string') throw new ValidationFailed('A custom field name must be a string.');
    if (name.trim().length > CUSTOM_FIELD_NAME_MAX_LENGTH)
      throw new ValidationFailed(`A custom field name must be at most ${CUSTOM_FIELD_NAME_MAX_LENGTH} characters.`);
    let text: string;
    if (value === undefined || value === null) text = '';
    else if (typeof value === 'string') text = value;
    else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
    else throw new ValidationFailed(`The value of custom field ${name.trim()} must be a string.`);
    if (text.length > CUSTOM_FIELD_VALUE_MAX_LENGTH)
      throw new ValidationFailed(`The value of custom field ${name.trim()} must be at most ${CUSTOM_FIELD_VALUE_MAX_LENGTH} characters.`);
    updates.push({ name: name.trim(), value: text });
  }
  return updates;
}

/**
 * A field that exists (name compared case-insensitively) gets the new value and keeps
 * its stored name; a missing one is created; fields not listed stay. Of two updates of one name, the
 * later wins.
 */
export function mergeCustomFields(existing: readonly CustomField[], updates: readonly CustomField[]): CustomField[] {
  const result = existing.map((field) => ({ ...field }));
  for (const update of updates) {
    const current = result.find((field) => sameName(field.name, update.name));
    if (current) current.value = update.value;
    else result.push({ ...update });
    // refused as soon as it is over: the search above stays over at most that many fields
    if (result.length > MAX_CUSTOM_FIELDS_PER_USER)
      throw new ValidationFailed(`A user can have at most ${MAX_CUSTOM_FIELDS_PER_USER} custom fields.`);
  }
  return result;
}

/** The `fieldNames` of DELETE /v2/users/{id}/customfields: an array of strings. */
export function parseCustomFieldNames(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('fieldNames must be an array of strings.');
  if (raw.some((name) => name !== null && typeof name !== 'string')) throw new ValidationFailed('fieldNames must be an array of strings.');
  return (raw as (string | null)[]).filter((name): name is string => name !== null && name.trim() !== '').map((name) => name.trim());
}

/**
 * Only the listed names go (case-insensitively); unknown and empty names are ignored,
 * so an empty list changes nothing.
 */
export function removeCustomFields(existing: readonly CustomField[], names: readonly string[]): CustomField[] {
  return existing.filter((field) => !names.some((name) => sameName(name, field.name)));
}
