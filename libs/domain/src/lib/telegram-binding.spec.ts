import { isTelegramStartPayload, parseBotCommand, telegramLanguageOf, TELEGRAM_START_PAYLOAD_MAX_CHARS } from './telegram-binding';

describe('the /start payload', () => {
  it('is at most 64 characters of [A-Za-z0-9_-]', () => {
    expect(TELEGRAM_START_PAYLOAD_MAX_CHARS).toBe(64);
    expect(isTelegramStartPayload('a'.repeat(64))).toBe(true);
    expect(isTelegramStartPayload('Ab0_-')).toBe(true);
    expect(isTelegramStartPayload('a'.repeat(65))).toBe(false);
    expect(isTelegramStartPayload('')).toBe(false);
    for (const bad of ['a b', 'a+b', 'a/b', 'a=b', 'ä', 'a.b']) expect(isTelegramStartPayload(bad)).toBe(false);
  });

  it('is read from /start <payload>; an over-long or foreign one is no payload', () => {
    expect(parseBotCommand('/start abc_DEF-1')).toEqual({ kind: 'start', payload: 'abc_DEF-1' });
    expect(parseBotCommand('/start@TwofoldBot abc')).toEqual({ kind: 'start', payload: 'abc' });
    expect(parseBotCommand('/start')).toEqual({ kind: 'start', payload: null });
    expect(parseBotCommand('/start   ')).toEqual({ kind: 'start', payload: null });
    expect(parseBotCommand(`/start ${'a'.repeat(65)}`)).toEqual({ kind: 'startInvalid' });
    expect(parseBotCommand('/start a+b')).toEqual({ kind: 'startInvalid' });
    expect(parseBotCommand('/start a b')).toEqual({ kind: 'other' });
    expect(parseBotCommand('/starting')).toEqual({ kind: 'other' });
    expect(parseBotCommand('hello')).toEqual({ kind: 'other' });
    expect(parseBotCommand(undefined)).toEqual({ kind: 'other' });
  });
});

describe("a bound chat's language", () => {
  it("is Telegram's language_code: ru… Russian, another language English, none the default Russian", () => {
    expect(telegramLanguageOf('ru')).toBe('ru');
    expect(telegramLanguageOf('ru-RU')).toBe('ru');
    expect(telegramLanguageOf('en')).toBe('en');
    expect(telegramLanguageOf('de')).toBe('en');
    expect(telegramLanguageOf('rus')).toBe('en');
    expect(telegramLanguageOf(null)).toBe('ru');
    expect(telegramLanguageOf('')).toBe('ru');
  });
});
