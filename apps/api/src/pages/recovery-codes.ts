import { html, Html } from './html';
import { PageLanguage } from './i18n/languages';

const TEXTS = {
  en: {
    heading: 'Your recovery codes',
    intro:
      'Each code signs you in once, where a code is asked, when your phone is not at hand. Save them now (print them or keep them in a password manager): they are shown only this once.',
  },
  ru: {
    heading: 'Ваши коды восстановления',
    intro:
      'Каждый код один раз позволяет войти там, где спрашивают код, если телефона нет под рукой. Сохраните их сейчас (распечатайте или сохраните в менеджере паролей): они показываются только один раз.',
  },
} as const;

/** The recovery codes the page shows this once (the enrollment link's last page, "my factors"): what they are for, and the list. */
export function recoveryCodesBlock(lang: PageLanguage, codes: readonly string[], headingLevel: 'h1' | 'h2'): Html {
  const t = TEXTS[lang];
  const heading = headingLevel === 'h1' ? html`<h1>${t.heading}</h1>` : html`<h2>${t.heading}</h2>`;
  return html`<section class="${headingLevel === 'h2' ? 'recovery-codes' : 'recovery-shown'}">${heading}
<p>${t.intro}</p>
<ol class="recovery-list" data-testid="recovery-codes">${codes.map((code) => html`<li><code>${code}</code></li>`)}</ol></section>`;
}

/** The page title of the codes shown once. */
export function recoveryCodesTitle(lang: PageLanguage): string {
  return TEXTS[lang].heading;
}
