import { hiddenInputs } from '../../pages/form-fields';
import { html, Html } from '../../pages/html';
import { PageLanguage } from '../../pages/i18n/languages';

const TEXTS = {
  en: {
    summary: 'Lost your phone? Use a recovery code',
    label: 'Recovery code or helpdesk code',
    hint: 'Twelve letters and digits, as XXXX-XXXX-XXXX.',
    submit: 'Sign in with this code',
  },
  ru: {
    summary: 'Нет телефона? Войдите по коду восстановления',
    label: 'Код восстановления или код от службы поддержки',
    hint: 'Двенадцать букв и цифр, в виде XXXX-XXXX-XXXX.',
    submit: 'Войти по этому коду',
  },
} as const;

/**
 * Twelve Crockford base32 characters with any spaces or dashes between them, as the codes are handed
 * over (`XXXX-XXXX-XXXX`); case and the look-alike letters are left to the server, which reads them.
 */
export const STANDBY_CODE_PATTERN = '(?:[0-9A-Za-z][ \\-]?){12}';

/**
 * The code prompt's second way in: a recovery code or a helpdesk bypass code, in a disclosure of its
 * own so that the token's field keeps its numeric keyboard (a phone would not offer letters there).
 * It posts the same `code` field: the server tells the kinds apart by their length. Offered to every
 * user on the code prompt, since a helpdesk may issue a bypass code while the user is on the page.
 * No script: `<details>` opens by itself.
 */
export function standbyCodeForm(lang: PageLanguage, hidden: Record<string, string>): Html {
  const t = TEXTS[lang];
  return html`<details class="standby-code">
  <summary>${t.summary}</summary>
  <form method="post">
    ${hiddenInputs(hidden)}
    <label for="standby-code">${t.label}</label>
    <input id="standby-code" name="code" inputmode="text" autocapitalize="characters" pattern="${STANDBY_CODE_PATTERN}" minlength="12" maxlength="24" autocomplete="off" placeholder="XXXX-XXXX-XXXX" title="${t.hint}" spellcheck="false" required>
    <button type="submit">${t.submit}</button>
  </form>
</details>`;
}
