import { ValidationFailed } from './domain-error';

/** The product's own name: what the pages and mails say only as small print once an account has a display name. */
export const PRODUCT_NAME = 'Twofold';
/** In characters as people count them (code points): the authenticator apps show the issuer in one short line. */
export const DISPLAY_NAME_MAX_LENGTH = 64;

/**
 * An account's display name: the customer's name on its pages, in its mails and as the
 * issuer of its users' authenticator-app entries. Trimmed; refused when empty, longer than 64
 * characters, with a `:` (the otpauth label separates issuer and identity with it, and apps that split
 * on the first `:` would show a wrong issuer) or with a control character (a line break would end a
 * mail's Subject header). `field` names the input in the message (the API's body field, the CLI's flag).
 */
export function validateDisplayName(raw: unknown, field = 'displayName'): string {
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  const name = raw.trim();
  if (name === '') throw new ValidationFailed(`${field} must not be empty.`);
  if ([...name].length > DISPLAY_NAME_MAX_LENGTH) {
    throw new ValidationFailed(`${field} must be at most ${DISPLAY_NAME_MAX_LENGTH} characters.`);
  }
  if (name.includes(':')) throw new ValidationFailed(`${field} must not contain ':'.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(name)) {
    throw new ValidationFailed(`${field} must not contain control characters or line breaks.`);
  }
  return name;
}

/** What the pages, mails and authenticator apps show for an account: its display name, else its name. */
export function effectiveDisplayName(account: { name: string; displayName: string | null }): string {
  return account.displayName ?? account.name;
}
