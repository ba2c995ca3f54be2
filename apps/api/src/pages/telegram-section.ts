import { html, Html, trustedHtml } from './html';
import { PageLanguage } from './i18n/languages';

/** The Telegram offer of an enrolling page, as the page shows it. */
export interface TelegramSectionModel {
  url: string;
  qrSvg: string;
  /** the page's own check of the link, relative to the page's URL */
  statePath: string;
}

const TEXTS = {
  en: {
    title: 'Or confirm sign-ins in Telegram',
    intro: 'Open the link on your phone (or scan the code) and press Start in the bot: sign-ins are then confirmed with one tap.',
    open: 'Open Telegram',
    qr: 'QR code of the link to the Telegram bot',
    bound: 'Telegram is connected.',
  },
  ru: {
    title: 'Или подтверждайте входы в Telegram',
    intro: 'Откройте ссылку на телефоне (или отсканируйте код) и нажмите «Старт» в боте: входы будут подтверждаться одним нажатием.',
    open: 'Открыть Telegram',
    qr: 'QR-код ссылки на бота Telegram',
    bound: 'Telegram подключён.',
  },
} as const;

/**
 * The one script of the Telegram offer, the same text for every page: it asks the page's check every
 * two seconds until the link has bound a chat, says so, and (where the page continues with the new
 * factor, `data-continue`) loads the page again, which then asks for the approval.
 */
export const TELEGRAM_BOUND_SCRIPT =
  "(function () { var section = document.getElementById('telegram'); if (!section || !window.fetch) return; " +
  "var path = section.getAttribute('data-state'); var status = document.getElementById('telegram-status'); " +
  "function check() { fetch(path, { cache: 'no-store', credentials: 'same-origin' }).then(function (res) { return res.ok ? res.json() : {}; })" +
  ".then(function (state) { if (state.bound) { status.textContent = status.getAttribute('data-bound'); " +
  "if (section.hasAttribute('data-continue')) window.location.replace(window.location.pathname); } else setTimeout(check, 2000); })" +
  '.catch(function () { setTimeout(check, 2000); }); } setTimeout(check, 2000); })();';

export function telegramSection(lang: PageLanguage, nonce: string, model: TelegramSectionModel, options: { continues: boolean }): Html {
  const t = TEXTS[lang];
  const continues = options.continues ? trustedHtml(' data-continue') : null;
  return html`<section id="telegram" data-state="${model.statePath}"${continues}>
<h2>${t.title}</h2>
<p>${t.intro}</p>
<p><a class="btn" id="telegram-link" href="${model.url}">${t.open}</a></p>
<div class="qr" role="img" aria-label="${t.qr}">${trustedHtml(model.qrSvg)}</div>
<p role="status" id="telegram-status" data-bound="${t.bound}"></p>
</section>
<script nonce="${nonce}">${trustedHtml(TELEGRAM_BOUND_SCRIPT)}</script>`;
}
