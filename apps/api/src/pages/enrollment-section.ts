import { codeField, hiddenInputs, keyGroups } from './form-fields';
import { html, Html, trustedHtml } from './html';
import { messagesOf, PageLanguage } from './i18n/languages';
import { ICONS } from './icons';
import { COPY_KEY_SCRIPT } from './page-assets';

export interface EnrollmentFormModel {
  holder: string;
  secretBase32: string;
  otpauthUri: string;
  qrSvg: string;
  error?: { attemptsLeft: number };
  /** hidden inputs of the form (the access page's anti-forgery token) */
  hidden?: Record<string, string>;
  /** when the enrollment link stops working: its page says so (the access page shows its request's expiry instead) */
  linkExpiresAt?: Date;
}

/**
 * "This link works until 2026-05-21 10:00 UTC.": a link lives up to 30 days and is often opened
 * from a mail days later, so the moment itself rather than minutes left; in UTC, as the mail says it.
 */
function linkExpiry(lang: PageLanguage, expiresAt: Date): Html {
  const at = expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  return html`<p class="expiry">${ICONS.clock}<time datetime="${expiresAt.toISOString()}">${messagesOf(lang).enrollment.linkExpires(at)}</time></p>\n`;
}

/**
 * The enrollment of an authenticator app, on the enrollment link's page and on the access page of a
 * user without a second factor: QR code, Base32 secret (as one unbroken text, `data-testid="secret"`,
 * shown in groups of four beside it), otpauth link (a button above the QR code on narrow screens) and
 * the code form.
 */
export function enrollmentSection(lang: PageLanguage, nonce: string, model: EnrollmentFormModel, afterIntro: Html | null = null): Html {
  const t = messagesOf(lang).enrollment;
  const error = model.error ? t.wrongCode(model.error.attemptsLeft) : null;
  const uri = model.otpauthUri;
  const expiry = afterIntro ?? (model.linkExpiresAt ? linkExpiry(lang, model.linkExpiresAt) : null);
  return html`<p>${t.intro(model.holder)}</p>
${expiry}<div class="open-app-narrow">
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
<script nonce="${nonce}">${COPY_KEY_SCRIPT}</script>`;
}
