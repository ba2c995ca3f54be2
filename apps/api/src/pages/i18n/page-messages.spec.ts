import { en } from './en';
import { messagesOf, pageLanguage } from './languages';
import { PageMessages } from './page-messages';
import { ru } from './ru';

/** The nested keys of a table, functions included: what each language must provide. */
function keysOf(table: object, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('page messages: one table per language, of one type', () => {
  it('a language without one of the texts does not compile (type-checked by ts-jest)', () => {
    // @ts-expect-error the access page's reload text is missing
    const incomplete: PageMessages = { enrollment: ru.enrollment, access: { ...ru.access, reload: undefined } };
    expect(incomplete.access.reload).toBeUndefined();
  });

  it('English and Russian have the same texts', () => {
    expect(keysOf(ru).sort()).toEqual(keysOf(en).sort());
  });

  it('plurals come from the language rules', () => {
    expect([1, 2, 5, 21].map((n) => messagesOf('ru').access.expiresIn(n))).toEqual([
      'Запрос действует ещё 1 минуту.',
      'Запрос действует ещё 2 минуты.',
      'Запрос действует ещё 5 минут.',
      'Запрос действует ещё 21 минуту.',
    ]);
    expect([1, 2].map((n) => messagesOf('en').access.expiresIn(n))).toEqual([
      'This request expires in 1 minute.',
      'This request expires in 2 minutes.',
    ]);
  });

  it('the browser language picks Russian only when asked first', () => {
    expect([pageLanguage('ru-RU,en;q=0.8'), pageLanguage('en,ru'), pageLanguage(undefined), pageLanguage(' RU')]).toEqual([
      'ru',
      'en',
      'en',
      'ru',
    ]);
  });
});
