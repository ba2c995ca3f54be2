/** The forms of one word for each plural category a page language uses (CLDR: en one/other; ru one/few/many/other). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const RULES = new Map<string, Intl.PluralRules>();

/** The form of the word for `count` in `lang`, by the language's CLDR rules (21 минуту, 22 минуты, 25 минут). */
export function plural(lang: string, count: number, forms: PluralForms): string {
  let rules = RULES.get(lang);
  if (!rules) RULES.set(lang, (rules = new Intl.PluralRules(lang)));
  return forms[rules.select(count)] ?? forms.other;
}
