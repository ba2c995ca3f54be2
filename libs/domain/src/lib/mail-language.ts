import { isGiven } from './input';
import { ValidationFailed } from './domain-error';

/** The languages mails are written in; Russian unless the caller says otherwise, as the pages. */
export type MailLanguage = 'ru' | 'en';
export const DEFAULT_MAIL_LANGUAGE: MailLanguage = 'ru';

/** An optional `Language` of a call that sends a mail: `ru` or `en` in any case; absent or null is Russian. */
export function parseMailLanguage(raw: unknown, field = 'Language'): MailLanguage {
  if (!isGiven(raw)) return DEFAULT_MAIL_LANGUAGE;
  const value = typeof raw === 'string' ? raw.trim().toLowerCase() : null;
  if (value === 'ru' || value === 'en') return value;
  throw new ValidationFailed(`${field} must be "ru" or "en".`);
}
