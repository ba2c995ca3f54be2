import { AccessLanguage } from './access-requests';

/**
 * Binding a Telegram chat to a user: the enrollment page shows a `https://t.me/<bot>?start=<payload>`
 * link; Telegram opens the bot, and the bot receives `/start <payload>` from the user's chat. Telegram
 * passes on a start parameter of at most 64 characters of `[A-Za-z0-9_-]`, so the service generates
 * nothing longer and reads nothing else as a payload.
 */
export const TELEGRAM_START_PAYLOAD_MAX_CHARS = 64;
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

/** Random bytes of a payload: 32 bytes are 43 base64url characters, inside the limit. */
export const TELEGRAM_START_PAYLOAD_BYTES = 32;

/** How long a binding link works when its page does not say: as long as an access request lives. */
export const TELEGRAM_BINDING_TTL_MINUTES = 15;

export function isTelegramStartPayload(text: string): boolean {
  return START_PAYLOAD.test(text);
}

/**
 * What a private chat's message asks of the bot: `/start <payload>` (the link's parameter), a bare
 * `/start` (the user opened the bot without a link), or anything else. `/start@BotName payload` is
 * Telegram's form in groups; private chats send it too when a user types it.
 */
export type BotCommand = { kind: 'start'; payload: string | null } | { kind: 'startInvalid' } | { kind: 'other' };

export function parseBotCommand(text: string | undefined): BotCommand {
  const match = /^\/start(?:@[A-Za-z0-9_]{1,64})?(?:\s+(\S*))?\s*$/.exec(text ?? '');
  if (!match) return { kind: 'other' };
  const payload = match[1] ?? '';
  if (payload === '') return { kind: 'start', payload: null };
  return isTelegramStartPayload(payload) ? { kind: 'start', payload } : { kind: 'startInvalid' };
}

/**
 * The language of a bound chat's messages, from the `language_code` Telegram reported at binding (an
 * IETF tag such as `ru`, `en-US`): Russian for `ru…` and when Telegram said nothing (the service's
 * default), English for any other language (more of them read English than Russian).
 */
export function telegramLanguageOf(languageCode: string | null | undefined): AccessLanguage {
  if (!languageCode) return 'ru';
  return /^ru(?![a-z])/i.test(languageCode.trim()) ? 'ru' : 'en';
}
