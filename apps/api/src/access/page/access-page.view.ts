import { AccessCallback, isPostMessageCallback, minutesUntil } from '@twofold/domain';
import { EnrollmentFormModel, enrollmentSection } from '../../pages/enrollment-section';
import { codeField, hiddenInputs } from '../../pages/form-fields';
import { html, Html, trustedHtml } from '../../pages/html';
import { messagesOf, PageLanguage } from '../../pages/i18n/languages';
import { IconName, ICONS } from '../../pages/icons';
import { renderLayout, renderStatusPage, StatusTone, statusCard } from '../../pages/layout';
import { undeliverableText } from './access-page-approval.view';
import { telegramSection, TelegramSectionModel } from '../../pages/telegram-section';
import { mobileAppSection, MobileAppSectionModel } from '../../pages/mobile-app-section';
import { AccessPhoneModel, phoneIntro, phoneNotice, phoneSendForm } from './access-page-phone.view';
import { standbyCodeForm } from './access-page-standby.view';

/** Why a request's page shows no form: declared with the page texts that must name each one. */
export type { AccessFinalReason } from '../../pages/i18n/page-messages';
import type { AccessFinalReason } from '../../pages/i18n/page-messages';

/** When the request expires (created + 15 minutes) and the server's now: the page shows the minutes left. */
export interface AccessExpiry {
  at: Date;
  now: Date;
}

export interface AccessEnrollModel extends EnrollmentFormModel {
  resourceName: string;
  expiry: AccessExpiry;
  /** Telegram offered beside the authenticator app, when a bot is configured */
  telegram?: TelegramSectionModel;
  /** the Twofold Authenticator app offered beside them, unless MOBILE_APP_OFFER turns it off */
  mobileApp?: MobileAppSectionModel;
}

/** "expires in N minutes", N rounded up (never 0 while the page is shown), computed on the server. */
function expiryHint(lang: PageLanguage, expiry: AccessExpiry): Html {
  const minutes = minutesUntil(expiry.at, expiry.now);
  return html`<p class="expiry">${ICONS.clock}<time datetime="${expiry.at.toISOString()}">${messagesOf(lang).access.expiresIn(minutes)}</time></p>\n`;
}

export function renderAccessEnroll(lang: PageLanguage, nonce: string, brand: string, model: AccessEnrollModel): Html {
  const title = messagesOf(lang).access.enrollTitle(model.resourceName);
  return renderLayout(
    lang,
    nonce,
    brand,
    title,
    html`<h1>${title}</h1>\n${enrollmentSection(lang, nonce, model, expiryHint(lang, model.expiry))}${
      model.telegram ? telegramSection(lang, nonce, model.telegram, { continues: true }) : null
    }${model.mobileApp ? mobileAppSection(lang, nonce, model.mobileApp, { continuation: 'reload' }) : null}`,
  );
}

export interface AccessCodeModel {
  resourceName: string;
  identity: string;
  hidden: Record<string, string>;
  expiry: AccessExpiry;
  error?: AccessCodeError;
  /** the user has a phone: the prompt offers to send a code by SMS or call */
  phone?: AccessPhoneModel;
}

/** What the code prompt says above its field after a submission that granted nothing. */
export type AccessCodeError =
  | { kind: 'wrongCode'; attemptsLeft: number }
  /** a code already spent (sent twice, or from the same time step): not counted */
  | { kind: 'alreadyUsed' }
  /** too many wrong codes from this address or through this resource: no code is checked for a while */
  | { kind: 'lockedOut'; minutes: number }
  /** the approval asked on the phone could not be delivered: the code is asked instead */
  | { kind: 'undeliverable' };

function codeErrorText(lang: PageLanguage, error: AccessCodeError | undefined): string | null {
  const t = messagesOf(lang).access;
  if (!error) return null;
  if (error.kind === 'wrongCode') return t.wrongCode(error.attemptsLeft);
  if (error.kind === 'alreadyUsed') return t.codeAlreadyUsed;
  if (error.kind === 'undeliverable') return undeliverableText(lang);
  return t.lockedOut(error.minutes);
}

/** The code prompt of an enrolled user: the code is all it asks for, so the field has the focus. */
export function renderAccessCode(lang: PageLanguage, nonce: string, brand: string, model: AccessCodeModel): Html {
  const t = messagesOf(lang).access;
  const title = t.codeTitle(model.resourceName);
  const { phone } = model;
  return renderLayout(
    lang,
    nonce,
    brand,
    title,
    html`<h1>${title}</h1>
<p>${phone && !phone.tokens ? phoneIntro(lang, model.identity, phone) : t.codeIntro(model.identity)}</p>
${expiryHint(lang, model.expiry)}${phone ? phoneNotice(lang, phone) : null}<form method="post">
  ${hiddenInputs(model.hidden)}
  ${codeField(t.codeLabel, codeErrorText(lang, model.error), { autofocus: true, title: t.codePattern })}
  <button type="submit">${t.submit}</button>
</form>${phone ? phoneSendForm(lang, model.hidden, phone) : null}${standbyCodeForm(lang, model.hidden)}`,
  );
}

/**
 * The one script of a postMessage callback's success page, the same text for every
 * request: the token and the target origins are data of the page (an escaped hidden input and its
 * attribute), never part of the script. Posts once per origin, only when the page is in a frame.
 */
export const POST_MESSAGE_SCRIPT =
  "(function () { var source = document.getElementById('accessToken'); if (!source || window.parent === window) return; " +
  "var token = source.value; (source.getAttribute('data-target-origins') || '').split(' ').forEach(function (origin) { " +
  'if (origin) window.parent.postMessage(token, origin); }); })();';

/**
 * Success: a form posting the accessToken to the client's callback, submitted by a nonce-guarded
 * script; the visible button is the path without script. A postMessage callback posts
 * no form: the fixed POST_MESSAGE_SCRIPT hands the token to `window.parent`, for each of
 * `targetOrigins` (the resource's frameOrigins, or `*`).
 */
export function renderAccessGranted(
  lang: PageLanguage,
  nonce: string,
  brand: string,
  callback: AccessCallback | null,
  accessToken: string,
  targetOrigins: readonly string[],
): Html {
  const t = messagesOf(lang).access;
  if (!callback) return renderStatusPage(lang, nonce, brand, 'ok', 'check', t.grantedTitle, t.grantedNoCallback);
  // a postMessage callback (AD FS, Keycloak) gets the token through the fixed script, never a form
  const handOver = isPostMessageCallback(callback.action)
    ? html`<p role="status">${t.grantedFramed}</p>
<input type="hidden" id="accessToken" value="${accessToken}" data-target-origins="${targetOrigins.join(' ')}">
<script nonce="${nonce}">${trustedHtml(POST_MESSAGE_SCRIPT)}</script>`
    : html`<p role="status">${t.granted}</p>
<form method="post" action="${callback.action}" target="${callback.target}" id="callback">
  <input type="hidden" name="accessToken" value="${accessToken}">
  <button type="submit">${t.continue}</button>
</form>
<script nonce="${nonce}">document.getElementById('callback').submit();</script>`;
  return renderLayout(lang, nonce, brand, t.grantedTitle, statusCard('ok', 'check', t.grantedTitle, handOver));
}

const FINAL_LOOK: Record<AccessFinalReason, [StatusTone, IconName]> = {
  unknown: ['info', 'question'],
  expired: ['warn', 'clock'],
  denied: ['stop', 'cross'],
  locked: ['stop', 'lock'],
  tooManyCodes: ['stop', 'cross'],
  used: ['info', 'info'],
  noLicense: ['stop', 'cross'],
  noOtpFactor: ['stop', 'lock'],
  factorsDisabled: ['stop', 'lock'],
  networkDenied: ['stop', 'lock'],
  forged: ['warn', 'refresh'],
};

/** A request's final page: a card with a status icon, what happened and what to do next. */
export function renderAccessFinal(lang: PageLanguage, nonce: string, brand: string, reason: AccessFinalReason): Html {
  const t = messagesOf(lang).access;
  const [tone, icon] = FINAL_LOOK[reason];
  const action = reason === 'forged' ? html`<a class="btn" href="">${ICONS.refresh}<span>${t.reload}</span></a>` : null;
  return renderStatusPage(lang, nonce, brand, tone, icon, t.finalTitle[reason], t.final[reason], action);
}
