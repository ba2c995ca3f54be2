import { RECOVERY_CODES_LOW } from '@twofold/domain';
import { html, Html } from '../../pages/html';
import { PageLanguage } from '../../pages/i18n/languages';
import { renderLayout } from '../../pages/layout';
import { recoveryCodesBlock, recoveryCodesTitle } from '../../pages/recovery-codes';
import { ICONS } from '../../pages/icons';

/** The form action that makes ten new recovery codes (the old ones stop working). */
export const RECOVERY_CODES_ACTION = 'recovery-codes';

const TEXTS = {
  en: {
    heading: 'Recovery codes',
    none: 'You have no recovery codes. They let you sign in when your phone is lost: create them and keep them somewhere safe.',
    left: (n: number) => `Recovery codes left: ${n}.`,
    low: (n: number) => `Only ${n} recovery code(s) left. Create new ones before you run out.`,
    create: 'Create recovery codes',
    regenerate: 'Create new recovery codes (the old ones stop working)',
    confirmFirst: 'Confirm it is you above to create recovery codes.',
    done: 'I have saved them: back to my sign-in methods',
  },
  ru: {
    heading: 'Коды восстановления',
    none: 'У вас нет кодов восстановления. Они позволяют войти, если телефон потерян: создайте их и сохраните в надёжном месте.',
    left: (n: number) => `Осталось кодов восстановления: ${n}.`,
    low: (n: number) => `Осталось кодов восстановления: ${n}. Создайте новые, пока они не закончились.`,
    create: 'Создать коды восстановления',
    regenerate: 'Создать новые коды восстановления (старые перестанут действовать)',
    confirmFirst: 'Чтобы создать коды восстановления, сначала подтвердите выше, что это вы.',
    done: 'Я сохранил коды: вернуться к способам входа',
  },
} as const;

/** The section on the list: how many are left (a warning when few), and once confirmed the button that makes new ones. */
export function recoveryCodesSection(
  lang: PageLanguage,
  left: number,
  checked: boolean,
  actionForm: (action: string, body: Html) => Html,
): Html {
  const t = TEXTS[lang];
  const status =
    left === 0
      ? html`<p>${t.none}</p>`
      : left <= RECOVERY_CODES_LOW
        ? html`<p class="error" role="alert" data-testid="recovery-low">${ICONS.alert}<span>${t.low(left)}</span></p>`
        : html`<p data-testid="recovery-left">${t.left(left)}</p>`;
  const action = checked
    ? actionForm(RECOVERY_CODES_ACTION, html`<button type="submit" class="secondary">${left === 0 ? t.create : t.regenerate}</button>`)
    : html`<p class="muted">${t.confirmFirst}</p>`;
  return html`<section class="recovery-codes"><h2>${t.heading}</h2>${status}${action}</section>`;
}

/** The ten codes, shown once; the way back is a plain form post (no script). */
export function renderMyFactorsRecoveryCodes(
  lang: PageLanguage,
  nonce: string,
  brand: string,
  codes: readonly string[],
  actionForm: (action: string, body: Html) => Html,
): Html {
  const t = TEXTS[lang];
  return renderLayout(
    lang,
    nonce,
    brand,
    recoveryCodesTitle(lang),
    html`${recoveryCodesBlock(lang, codes, 'h1')}
${actionForm('list', html`<button type="submit">${t.done}</button>`)}`,
  );
}
