import { en } from './en';
import { PageMessages } from './page-messages';
import { ru } from './ru';

export type PageLanguage = 'en' | 'ru';

const MESSAGES: Record<PageLanguage, PageMessages> = { en, ru };

/** The language the browser asks for first, for a page without a language of its own: Russian if asked first, else English. */
export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  return /^\s*ru\b/i.test(acceptLanguage ?? '') ? 'ru' : 'en';
}

export function messagesOf(lang: PageLanguage): PageMessages {
  return MESSAGES[lang];
}
