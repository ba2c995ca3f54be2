import { PRODUCT_NAME } from '@twofold/domain';
import { html, Html } from './html';
import { PageLanguage } from './i18n/languages';
import { IconName, ICONS, LOGO } from './icons';
import { PAGE_STYLE } from './page-assets';
import { PAGE_REFERRER_POLICY } from './send-page';

export type StatusTone = 'ok' | 'stop' | 'warn' | 'info';

/**
 * The page frame shared by the enrollment and access pages: brand, one card, phone-sized. The brand is
 * the customer's display name: the user must see which company asks for their code; the
 * product's name is only the small print under the card (and the brand itself where no account is
 * known, as on the page of an unknown request).
 */
export function renderLayout(lang: PageLanguage, nonce: string, brand: string, title: string, body: Html): Html {
  const smallPrint = brand === PRODUCT_NAME ? html`` : html`\n<p class="product">${PRODUCT_NAME}</p>`;
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${PAGE_REFERRER_POLICY}">
<meta name="robots" content="noindex">
<title>${title} · ${brand}</title>
<style nonce="${nonce}">
${PAGE_STYLE}</style>
</head>
<body><main><div class="brand">${LOGO}<span>${brand}</span></div>
<div class="card">
${body}
</div>${smallPrint}</main></body>
</html>`;
}

/** A final page's content: a large status icon, the title and what to do next. */
export function statusCard(tone: StatusTone, icon: IconName, title: string, body: Html): Html {
  return html`<div class="final"><div class="status-icon tone-${tone}" aria-hidden="true">${ICONS[icon]}</div>
<h1>${title}</h1>
${body}</div>`;
}

/** A final page: status icon, title, the next step, and optionally a call to action (HTML). */
export function renderStatusPage(
  lang: PageLanguage,
  nonce: string,
  brand: string,
  tone: StatusTone,
  icon: IconName,
  title: string,
  next: string,
  action: Html | null = null,
): Html {
  return renderLayout(lang, nonce, brand, title, statusCard(tone, icon, title, html`<p>${next}</p>${action}`));
}
