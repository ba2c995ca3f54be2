import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ValidationFailed } from './domain-error';
import { cutText } from './text';

/** At most 5 numbers per V3 phone update. */
export const MAX_PHONES_PER_REQUEST = 5;
export const PHONE_LIST_SEPARATOR = ';';

/**
 * A phone number in international form (`+` and the country code; `00` is read as `+`), checked
 * against libphonenumber's metadata for the country, normalised to E.164.
 */
export function normalizePhoneNumber(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('A phone number must be a non-empty string.');
  const text = raw.trim().replace(/^00/, '+');
  const phone = text.length <= 40 ? parsePhoneNumberFromString(text) : undefined;
  if (!phone || !phone.isValid()) throw new ValidationFailed(`Phone number ${cutText(raw.trim(), 40)} is incorrect.`);
  return phone.number;
}

/**
 * `PhoneNumbers` is one string of numbers separated by semicolons;
 * null or empty, more than 5 numbers, or any incorrect number refuses the whole request. Returns the
 * distinct numbers in E.164, in the order sent.
 */
export function parsePhoneNumberList(raw: unknown): string[] {
  if (raw === undefined || raw === null) throw new ValidationFailed('PhoneNumbers must not be empty.');
  if (typeof raw !== 'string') throw new ValidationFailed('PhoneNumbers must be a string of numbers separated by semicolons.');
  const pieces = raw
    .split(PHONE_LIST_SEPARATOR)
    .map((piece) => piece.trim())
    .filter((piece) => piece !== '');
  if (pieces.length === 0) throw new ValidationFailed('PhoneNumbers must not be empty.');
  if (pieces.length > MAX_PHONES_PER_REQUEST) throw new ValidationFailed(`At most ${MAX_PHONES_PER_REQUEST} phone numbers can be sent.`);
  return [...new Set(pieces.map(normalizePhoneNumber))];
}

/**
 * The sent list becomes the stored set. With nothing stored every number is added
 * (which enables SMS); otherwise numbers missing from the list go and new ones come.
 */
export function planPhoneReplacement(stored: readonly string[], wanted: readonly string[]): { add: string[]; remove: string[] } {
  return {
    add: wanted.filter((number) => !stored.includes(number)),
    remove: stored.filter((number) => !wanted.includes(number)),
  };
}
