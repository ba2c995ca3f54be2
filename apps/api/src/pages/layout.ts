import { html, Html } from './html';
import { PageLanguage } from './i18n/languages';
import { IconName, ICONS, LOGO } from './icons';
import { PAGE_STYLE } from './page-assets';

export type StatusTone = 'ok' | 'stop' | 'warn' | 'info';

/** The page frame shared by the enrollment and access pages: brand, one card, phone-sized. */
export function renderLayout(lang: PageLanguage, nonce: string, title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${title} · Twofold</title>
<style nonce="${nonce}">
${PAGE_STYLE}</style>
</head>
<body><main><div class="brand">${LOGO}<span>Twofold</span></div>
<div class="card">
${body}
</div></main></body>
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
  tone: StatusTone,
  icon: IconName,
  title: string,
  next: string,
  action: Html | null = null,
): Html {
  return renderLayout(lang, nonce, title, statusCard(tone, icon, title, html`<p>${next}</p>${action}`));
}
