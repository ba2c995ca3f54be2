/**
 * Server-rendered pages of the enrollment link and the access page (apps/api/src/access): one layout,
 * one inline style guarded by a nonce. Scripts, each carrying the nonce, only enhance: the Copy button
 * of the key (hidden without script) and the access page's callback auto-submit (a visible button
 * without script).
 */

import { html, Html, trustedHtml } from '../pages/html';

export type PageLanguage = 'en' | 'ru';

const TEXT = {
  en: {
    title: 'Set up your second factor',
    intro: (who: string) =>
      `Hello ${who}. Add this account to an authenticator app (Google Authenticator, Microsoft Authenticator, FreeOTP, …), then enter the code it shows.`,
    scan: 'Scan this QR code with the app:',
    qr: 'QR code for the authenticator app',
    orScan: 'or scan the QR code',
    manual: 'Cannot scan? Enter this key in the app:',
    openInApp: 'Open in an authenticator app on this device',
    copy: 'Copy',
    copied: 'Copied',
    copiedStatus: 'The key is copied to the clipboard.',
    codeLabel: 'Then enter the 6-digit code the app shows',
    codeTitle: '6 to 8 digits',
    submit: 'Confirm',
    wrongCode: (left: number) => `That code is not right. ${left} attempt(s) left.`,
    doneTitle: 'Your second factor is set up',
    done: 'You can close this page. When you sign in, enter the code your authenticator app shows.',
    goneTitle: 'This link can no longer be used',
    expired: 'The link has expired. Ask your administrator for a new one.',
    used: 'The link has already been used. If your second factor is set up, there is nothing more to do; otherwise ask your administrator for a new link.',
    revoked: 'The link was replaced by a newer one or locked after too many wrong codes. Ask your administrator for a new one.',
    unknown: 'The link is not valid. Check that you copied it completely, or ask your administrator for a new one.',
  },
  ru: {
    title: 'Настройка второго фактора',
    intro: (who: string) =>
      `Здравствуйте, ${who}. Добавьте эту учётную запись в приложение-аутентификатор (Google Authenticator, Яндекс Ключ, FreeOTP, …) и введите показанный им код.`,
    scan: 'Отсканируйте QR-код приложением:',
    qr: 'QR-код для приложения-аутентификатора',
    orScan: 'или отсканируйте QR-код',
    manual: 'Не получается отсканировать? Введите этот ключ в приложении:',
    openInApp: 'Открыть в приложении-аутентификаторе на этом устройстве',
    copy: 'Копировать',
    copied: 'Скопировано',
    copiedStatus: 'Ключ скопирован в буфер обмена.',
    codeLabel: 'Затем введите 6-значный код из приложения',
    codeTitle: 'От 6 до 8 цифр',
    submit: 'Подтвердить',
    wrongCode: (left: number) => `Неверный код. Осталось попыток: ${left}.`,
    doneTitle: 'Второй фактор настроен',
    done: 'Эту страницу можно закрыть. При входе вводите код из приложения-аутентификатора.',
    goneTitle: 'Ссылка больше не действует',
    expired: 'Срок действия ссылки истёк. Запросите новую у администратора.',
    used: 'Ссылка уже использована. Если второй фактор настроен, больше ничего делать не нужно; иначе запросите новую ссылку у администратора.',
    revoked: 'Ссылка заменена новой или заблокирована после слишком многих неверных кодов. Запросите новую у администратора.',
    unknown: 'Ссылка недействительна. Проверьте, что она скопирована полностью, или запросите новую у администратора.',
  },
} as const;

export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  return /^\s*ru\b/i.test(acceptLanguage ?? '') ? 'ru' : 'en';
}

const SVG_ATTRS =
  'viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.25" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"';

/** Stroke icons drawn inline (the CSP allows no external images). */
export const ICONS = {
  check: trustedHtml(`<svg ${SVG_ATTRS}><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>`),
  cross: trustedHtml(`<svg ${SVG_ATTRS}><path d="M6.5 6.5l11 11M17.5 6.5l-11 11"/></svg>`),
  clock: trustedHtml(`<svg ${SVG_ATTRS}><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3.5 2"/></svg>`),
  lock: trustedHtml(`<svg ${SVG_ATTRS}><rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/></svg>`),
  question: trustedHtml(`<svg ${SVG_ATTRS}><path d="M9.2 9.2a3 3 0 0 1 5.8 1c0 2-3 2.4-3 4.3"/><path d="M12 18.2h.01"/></svg>`),
  refresh: trustedHtml(`<svg ${SVG_ATTRS}><path d="M19.5 12.5a7.5 7.5 0 1 1-2.2-5.8"/><path d="M19.5 4.5v5h-5"/></svg>`),
  info: trustedHtml(`<svg ${SVG_ATTRS}><path d="M12 11v6.5"/><path d="M12 7h.01"/></svg>`),
  phone: trustedHtml(`<svg ${SVG_ATTRS}><rect x="6.5" y="2.5" width="11" height="19" rx="2.5"/><path d="M11 18.5h2"/></svg>`),
  copy: trustedHtml(`<svg ${SVG_ATTRS}><rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V6a2 2 0 0 1 2-2h8"/></svg>`),
  alert: trustedHtml(`<svg ${SVG_ATTRS}><circle cx="12" cy="12" r="9"/><path d="M12 7.5v5"/><path d="M12 16.2h.01"/></svg>`),
} as const;

export type StatusTone = 'ok' | 'stop' | 'warn' | 'info';

const LOGO = trustedHtml(
  `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path class="logo-shield" d="M12 2.2l8 3v6.1c0 5-3.4 9.3-8 10.7-4.6-1.4-8-5.7-8-10.7V5.2z"/><path class="logo-tick" d="M8.4 12.1l2.5 2.5 4.8-5" fill="none" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
);

const STYLE = trustedHtml(`
  :root { color-scheme: light dark; --accent: #2457d6; --accent-hover: #1c46b0; --on-accent: #fff; --bg: #f3f5f9; --card: #fff; --text: #1a1c21; --muted: #50566a;
    --border: #cdd2dc; --field: #fff; --soft: #eef1f7; --ok: #1b7a35; --ok-bg: #e2f3e6; --stop: #b3261e; --stop-bg: #fbe8e6; --warn: #8a5000; --warn-bg: #fdefd6; --info-bg: #e5ecfb; }
  @media (prefers-color-scheme: dark) {
    :root { --accent: #8ab4f8; --accent-hover: #a8c7fa; --on-accent: #0b1b3f; --bg: #111318; --card: #1b1e25; --text: #e6e8ee; --muted: #b0b6c3;
      --border: #474d5a; --field: #14161b; --soft: #262a33; --ok: #86d19b; --ok-bg: #1c3324; --stop: #f2b8b5; --stop-bg: #3d201e; --warn: #f4c46f; --warn-bg: #3a2d12; --info-bg: #1f2a44; }
  }
  *, *::before, *::after { box-sizing: border-box; }
  [hidden] { display: none !important; }
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; margin: 0; background: var(--bg); color: var(--text); -webkit-text-size-adjust: 100%; }
  main { max-width: 31rem; margin: 0 auto; padding: 1.25rem .875rem 2.5rem; }
  .brand { display: flex; align-items: center; gap: .45rem; font-weight: 700; font-size: 1.05rem; letter-spacing: .01em; color: var(--text); margin: .25rem .25rem 1rem; }
  .brand svg { width: 1.6rem; height: 1.6rem; }
  .logo-shield { fill: var(--accent); }
  .logo-tick { stroke: var(--on-accent); }
  .card { background: var(--card); border: 1px solid color-mix(in srgb, var(--border) 60%, transparent); border-radius: 1rem; padding: 1.5rem 1.25rem; box-shadow: 0 1px 2px rgb(0 0 0 / .05), 0 6px 20px rgb(0 0 0 / .05); }
  h1 { font-size: 1.35rem; line-height: 1.3; margin: 0 0 .75rem; }
  p { margin: 0 0 1rem; }
  a { color: var(--accent); text-underline-offset: .15em; }
  button, input, select, textarea { font: inherit; color: inherit; }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  .muted { color: var(--muted); font-size: .95rem; }
  .expiry { display: inline-flex; align-items: center; gap: .4rem; font-size: .9rem; color: var(--muted); background: var(--soft); border-radius: 2rem; padding: .2rem .75rem .2rem .55rem; margin: 0 0 1rem; }
  .expiry svg { width: 1.05rem; height: 1.05rem; flex: none; }
  .qr { background: #fff; padding: .75rem; border-radius: .75rem; width: 14.5rem; max-width: 100%; margin: .25rem auto 1.25rem; border: 1px solid var(--border); }
  .qr svg { display: block; width: 100%; height: auto; }
  .sr-only, code.secret { position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
  .key { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; background: var(--soft); border-radius: .6rem; padding: .5rem .5rem .5rem .85rem; margin: 0 0 1rem; }
  /* four groups of four to a line: 32 characters in two even lines */
  .key-groups { flex: 0 1 auto; width: calc(19.2ch + .8em + 2px); max-width: 100%; font: 600 1.1rem/1.6 ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; letter-spacing: .05em; user-select: all; -webkit-user-select: all; }
  .key-groups span { display: inline-block; white-space: nowrap; margin-right: .8ch; }
  .key-groups span:last-child { margin-right: 0; }
  .btn, button[type=submit] { display: flex; align-items: center; justify-content: center; gap: .5rem; width: 100%; min-height: 2.9rem; padding: .65rem 1rem; border: 1px solid transparent; border-radius: .6rem; font-weight: 600; text-decoration: none; text-align: center; line-height: 1.3; cursor: pointer; background: var(--accent); color: var(--on-accent); }
  .btn:hover, button[type=submit]:hover { background: var(--accent-hover); }
  .btn svg { width: 1.25rem; height: 1.25rem; flex: none; }
  .btn-secondary { background: var(--card); color: var(--accent); border-color: var(--border); }
  .btn-secondary:hover { background: var(--soft); }
  .copy { flex: none; display: inline-flex; align-items: center; gap: .35rem; padding: .45rem .7rem; min-height: 2.5rem; border-radius: .5rem; border: 1px solid var(--border); background: var(--card); color: var(--accent); font-weight: 600; font-size: .9rem; cursor: pointer; }
  .copy svg { width: 1.05rem; height: 1.05rem; }
  .copy.done { color: var(--ok); }
  .open-app-narrow { display: none; }
  .or { display: flex; align-items: center; gap: .75rem; text-align: center; color: var(--muted); font-size: .9rem; margin: 1rem 0; }
  .or::before, .or::after { content: ""; flex: 1 0 1.5rem; border-top: 1px solid var(--border); }
  @media (max-width: 40rem) {
    .open-app-narrow { display: block; }
    .open-app-wide { display: none; }
    .scan-hint { display: none; }
  }
  .code-step { margin-top: 1.5rem; padding-top: 1.25rem; border-top: 1px solid var(--border); }
  label { display: block; margin: 0 0 .5rem; font-weight: 600; }
  #code { display: block; width: 100%; margin: 0 0 1rem; padding: .55rem .75rem .55rem calc(.75rem + .4em); font: 600 1.75rem/1.25 ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace; letter-spacing: .4em; text-align: center;
    background: var(--field); color: var(--text); border: 1px solid var(--border); border-radius: .6rem; }
  #code::placeholder { color: var(--muted); opacity: .6; }
  #code:focus-visible { border-color: var(--accent); }
  #code[aria-invalid="true"] { border-color: var(--stop); }
  .error { display: flex; gap: .5rem; align-items: flex-start; color: var(--stop); background: var(--stop-bg); font-weight: 600; border-radius: .6rem; padding: .6rem .75rem; margin: 0 0 .75rem; }
  .error svg { width: 1.25rem; height: 1.25rem; flex: none; margin-top: .1rem; }
  .final { text-align: center; padding-top: 2rem; padding-bottom: 1.75rem; }
  .final p { max-width: 24rem; margin-left: auto; margin-right: auto; }
  .final > :last-child { margin-bottom: 0; }
  .final .btn { margin-top: 1.25rem; }
  .status-icon { display: flex; align-items: center; justify-content: center; width: 4.5rem; height: 4.5rem; border-radius: 50%; margin: 0 auto 1.25rem; }
  .status-icon svg { width: 2.4rem; height: 2.4rem; }
  .tone-ok { color: var(--ok); background: var(--ok-bg); }
  .tone-stop { color: var(--stop); background: var(--stop-bg); }
  .tone-warn { color: var(--warn); background: var(--warn-bg); }
  .tone-info { color: var(--accent); background: var(--info-bg); }
  @media (min-width: 40.01rem) { main { padding-top: 3rem; } .card { padding: 2rem 2.25rem; } }
`);

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
<style nonce="${nonce}">${STYLE}</style>
</head>
<body><main><div class="brand">${LOGO}<span>Twofold</span></div>
<div class="card">
${body}
</div></main></body>
</html>`;
}

/** A final page's content: a large status icon, the title and what to do next. */
export function statusCard(tone: StatusTone, icon: keyof typeof ICONS, title: string, body: Html): Html {
  return html`<div class="final"><div class="status-icon tone-${tone}" aria-hidden="true">${ICONS[icon]}</div>
<h1>${title}</h1>
${body}</div>`;
}

/** A final page: status icon, title, the next step, and optionally a call to action (HTML). */
export function renderStatusPage(
  lang: PageLanguage,
  nonce: string,
  tone: StatusTone,
  icon: keyof typeof ICONS,
  title: string,
  next: string,
  action: Html | null = null,
): Html {
  return renderLayout(lang, nonce, title, statusCard(tone, icon, title, html`<p>${next}</p>${action}`));
}

export interface EnrollmentFormModel {
  holder: string;
  secretBase32: string;
  otpauthUri: string;
  qrSvg: string;
  error?: { attemptsLeft: number };
  /** hidden inputs of the form (the access page's anti-forgery token) */
  hidden?: Record<string, string>;
}

/** `<input type="hidden">` for each field, escaped. */
export function hiddenInputs(fields: Record<string, string> | undefined): Html {
  return html`${Object.entries(fields ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

export interface CodeFieldOptions {
  /** only where the code is all the page asks for: on a phone the keyboard would cover the QR code */
  autofocus?: boolean;
  /** the browser's message for a value outside the pattern */
  title: string;
}

/** The code field (6 to 8 digits) with its label and error, as the enrollment and access forms show it. */
export function codeField(label: string, error: string | null, options: CodeFieldOptions): Html {
  const alert = error ? html`<p class="error" role="alert" id="code-error">${ICONS.alert}<span>${error}</span></p>` : null;
  return html`<label for="code">${label}</label>
  ${alert}
  <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6,8}" minlength="6" maxlength="8" autocomplete="one-time-code" placeholder="123456" title="${options.title}" spellcheck="false" required${options.autofocus && trustedHtml(' autofocus')}${error && trustedHtml(' aria-invalid="true" aria-describedby="code-error"')}>`;
}

/** The key in groups of four for the eye (copying the selection gives the key without spaces). */
export function keyGroups(secret: string): Html {
  return html`${(secret.match(/.{1,4}/g) ?? []).map((group) => html`<span>${group}</span>`)}`;
}

/**
 * The Copy button's script: shows the button (hidden without script) and copies the unbroken key of
 * `#secret`; where the Clipboard API is missing (plain http) it copies the selected key.
 */
const COPY_SCRIPT = trustedHtml(`(function () {
  var button = document.getElementById('copy-key'), key = document.getElementById('secret'), groups = document.getElementById('secret-groups'), status = document.getElementById('copy-status');
  if (!button || !key) return;
  var label = button.querySelector('span'), idle = label.textContent, timer;
  function done() {
    label.textContent = button.getAttribute('data-copied');
    button.classList.add('done');
    status.textContent = button.getAttribute('data-status');
    clearTimeout(timer);
    timer = setTimeout(function () { label.textContent = idle; button.classList.remove('done'); status.textContent = ''; }, 2500);
  }
  function fallback() {
    var range = document.createRange(), selection = window.getSelection();
    range.selectNodeContents(groups);
    selection.removeAllRanges();
    selection.addRange(range);
    try { if (document.execCommand('copy')) done(); } catch (e) { /* the key stays selected */ }
  }
  button.addEventListener('click', function () {
    var text = key.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
    else fallback();
  });
  button.hidden = false;
})();`);

export function renderEnrollmentForm(lang: PageLanguage, nonce: string, model: EnrollmentFormModel): Html {
  const t = TEXT[lang];
  return renderLayout(lang, nonce, t.title, html`<h1>${t.title}</h1>\n${enrollmentSection(lang, nonce, model)}`);
}

/**
 * QR code, Base32 secret (as one unbroken text, `data-testid="secret"`, shown in groups of four beside
 * it), otpauth link (a button above the QR code on narrow screens) and the code form.
 */
export function enrollmentSection(lang: PageLanguage, nonce: string, model: EnrollmentFormModel, afterIntro: Html | null = null): Html {
  const t = TEXT[lang];
  const error = model.error ? t.wrongCode(model.error.attemptsLeft) : null;
  const uri = model.otpauthUri;
  return html`<p>${t.intro(model.holder)}</p>
${afterIntro}<div class="open-app-narrow">
  <a class="btn" href="${uri}">${ICONS.phone}<span>${t.openInApp}</span></a>
  <p class="or">${t.orScan}</p>
</div>
<p class="scan-hint muted">${t.scan}</p>
<div class="qr" role="img" aria-label="${t.qr}">${trustedHtml(model.qrSvg)}</div>
<p class="muted" id="secret-label">${t.manual}</p>
<div class="key">
  <code class="secret" id="secret" data-testid="secret">${model.secretBase32}</code>
  <span class="key-groups" id="secret-groups" aria-hidden="true">${keyGroups(model.secretBase32)}</span>
  <button type="button" class="copy" id="copy-key" data-copied="${t.copied}" data-status="${t.copiedStatus}" aria-describedby="secret-label" hidden>${ICONS.copy}<span>${t.copy}</span></button>
</div>
<p class="sr-only" role="status" id="copy-status"></p>
<p class="open-app-wide"><a href="${uri}">${t.openInApp}</a></p>
<div class="code-step"><form method="post">
  ${hiddenInputs(model.hidden)}
  ${codeField(t.codeLabel, error, { title: t.codeTitle })}
  <button type="submit">${t.submit}</button>
</form></div>
<script nonce="${nonce}">${COPY_SCRIPT}</script>`;
}

export function renderEnrollmentDone(lang: PageLanguage, nonce: string): Html {
  const t = TEXT[lang];
  return renderStatusPage(lang, nonce, 'ok', 'check', t.doneTitle, t.done);
}

export type GoneReason = 'expired' | 'used' | 'revoked' | 'unknown';

const GONE_LOOK: Record<GoneReason, [StatusTone, keyof typeof ICONS]> = {
  expired: ['warn', 'clock'],
  used: ['info', 'info'],
  revoked: ['stop', 'cross'],
  unknown: ['info', 'question'],
};

export function renderEnrollmentGone(lang: PageLanguage, nonce: string, reason: GoneReason): Html {
  const t = TEXT[lang];
  const [tone, icon] = GONE_LOOK[reason];
  return renderStatusPage(lang, nonce, tone, icon, t.goneTitle, t[reason]);
}
