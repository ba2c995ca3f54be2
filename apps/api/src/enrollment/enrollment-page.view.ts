/**
 * Server-rendered pages of the enrollment link and the access page (apps/api/src/access): one layout,
 * one inline style guarded by a nonce; no script except the access page's callback auto-submit.
 */

export type PageLanguage = 'en' | 'ru';

const TEXT = {
  en: {
    title: 'Set up your second factor',
    intro: (who: string) => `Hello ${who}. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, FreeOTP, …).`,
    manual: 'Cannot scan? Enter this key in the app:',
    openInApp: 'Open in an authenticator app on this device',
    codeLabel: 'Then enter the 6-digit code the app shows',
    submit: 'Confirm',
    wrongCode: (left: number) => `That code is not right. ${left} attempt(s) left.`,
    doneTitle: 'Your second factor is set up',
    done: 'You can close this page.',
    goneTitle: 'This link can no longer be used',
    expired: 'The link has expired. Ask for a new one.',
    used: 'The link has already been used.',
    revoked: 'The link was replaced by a newer one or locked after too many wrong codes. Ask for a new one.',
    unknown: 'The link is not valid. Check that you copied it completely.',
  },
  ru: {
    title: 'Настройка второго фактора',
    intro: (who: string) => `Здравствуйте, ${who}. Отсканируйте QR-код приложением-аутентификатором (Google Authenticator, Яндекс Ключ, FreeOTP, …).`,
    manual: 'Не получается отсканировать? Введите этот ключ в приложении:',
    openInApp: 'Открыть в приложении-аутентификаторе на этом устройстве',
    codeLabel: 'Затем введите 6-значный код из приложения',
    submit: 'Подтвердить',
    wrongCode: (left: number) => `Неверный код. Осталось попыток: ${left}.`,
    doneTitle: 'Второй фактор настроен',
    done: 'Эту страницу можно закрыть.',
    goneTitle: 'Ссылка больше не действует',
    expired: 'Срок действия ссылки истёк. Запросите новую.',
    used: 'Ссылка уже использована.',
    revoked: 'Ссылка заменена новой или заблокирована после слишком многих неверных кодов. Запросите новую.',
    unknown: 'Ссылка недействительна. Проверьте, что она скопирована полностью.',
  },
} as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export function pageLanguage(acceptLanguage: string | undefined): PageLanguage {
  return /^\s*ru\b/i.test(acceptLanguage ?? '') ? 'ru' : 'en';
}

/** The page frame shared by the enrollment and access pages: brand, one column, phone-sized. */
export function renderLayout(lang: PageLanguage, nonce: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Twofold</title>
<style nonce="${nonce}">
  :root { color-scheme: light dark; --accent: #2457d6; }
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; background: Canvas; color: CanvasText; }
  main { max-width: 28rem; margin: 0 auto; padding: 2rem 1.25rem; }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  .brand { font-weight: 600; letter-spacing: .02em; color: var(--accent); margin-bottom: 1.5rem; }
  .qr { background: #fff; padding: .75rem; border-radius: .75rem; width: 14rem; margin: 1rem auto; }
  .qr svg { display: block; width: 100%; height: auto; }
  code.secret { display: block; font-size: 1.05rem; letter-spacing: .08em; word-break: break-all; padding: .6rem .8rem; border-radius: .5rem; background: color-mix(in srgb, CanvasText 8%, Canvas); }
  label { display: block; margin: 1.25rem 0 .4rem; font-weight: 600; }
  input[name=code] { font-size: 1.6rem; letter-spacing: .3em; width: 100%; box-sizing: border-box; padding: .5rem .75rem; border-radius: .5rem; border: 1px solid color-mix(in srgb, CanvasText 35%, Canvas); }
  button { margin-top: 1rem; width: 100%; font-size: 1.05rem; padding: .7rem; border: 0; border-radius: .5rem; background: var(--accent); color: #fff; cursor: pointer; }
  button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid color-mix(in srgb, var(--accent) 60%, transparent); outline-offset: 2px; }
  .error { color: #b3261e; font-weight: 600; }
  .muted { opacity: .75; font-size: .95rem; }
  .badge { display: inline-block; font-size: .85rem; font-weight: 600; padding: .15rem .6rem; border-radius: 1rem; margin-bottom: .75rem; }
  .badge.ok { background: color-mix(in srgb, #1e8e3e 18%, Canvas); color: #1e8e3e; }
  .badge.stop { background: color-mix(in srgb, #b3261e 15%, Canvas); color: #b3261e; }
  a { color: var(--accent); }
</style>
</head>
<body><main><div class="brand">Twofold</div>${body}</main></body>
</html>`;
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
export function hiddenInputs(fields: Record<string, string> | undefined): string {
  return Object.entries(fields ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

/** The 6-digit code field with its label and error, as the enrollment and access forms show it. */
export function codeField(label: string, error: string | null): string {
  const alert = error ? `<p class="error" role="alert" id="code-error">${escapeHtml(error)}</p>` : '';
  return `<label for="code">${escapeHtml(label)}</label>
  ${alert}
  <input id="code" name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" autocomplete="one-time-code" required autofocus${error ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>`;
}

export function renderEnrollmentForm(lang: PageLanguage, nonce: string, model: EnrollmentFormModel): string {
  const t = TEXT[lang];
  return renderLayout(lang, nonce, t.title, `<h1>${escapeHtml(t.title)}</h1>\n${enrollmentSection(lang, model)}`);
}

/** QR code, Base32 secret (as text, `data-testid="secret"`), otpauth link and the code form. */
export function enrollmentSection(lang: PageLanguage, model: EnrollmentFormModel): string {
  const t = TEXT[lang];
  const error = model.error ? t.wrongCode(model.error.attemptsLeft) : null;
  return `<p>${escapeHtml(t.intro(model.holder))}</p>
<div class="qr" role="img" aria-label="QR code">${model.qrSvg}</div>
<p>${escapeHtml(t.manual)}</p>
<code class="secret" id="secret" data-testid="secret">${escapeHtml(model.secretBase32)}</code>
<p><a href="${escapeHtml(model.otpauthUri)}">${escapeHtml(t.openInApp)}</a></p>
<form method="post">
  ${hiddenInputs(model.hidden)}
  ${codeField(t.codeLabel, error)}
  <button type="submit">${escapeHtml(t.submit)}</button>
</form>`;
}

export function renderEnrollmentDone(lang: PageLanguage, nonce: string): string {
  const t = TEXT[lang];
  return renderLayout(lang, nonce, t.doneTitle, `<h1>${escapeHtml(t.doneTitle)}</h1><p>${escapeHtml(t.done)}</p>`);
}

export type GoneReason = 'expired' | 'used' | 'revoked' | 'unknown';

export function renderEnrollmentGone(lang: PageLanguage, nonce: string, reason: GoneReason): string {
  const t = TEXT[lang];
  return renderLayout(lang, nonce, t.goneTitle, `<h1>${escapeHtml(t.goneTitle)}</h1><p>${escapeHtml(t[reason])}</p>`);
}
