import { AccessCallback, isPostMessageCallback } from '@twofold/domain';
import {
  codeField,
  EnrollmentFormModel,
  enrollmentSection,
  hiddenInputs,
  ICONS,
  PageLanguage,
  renderLayout,
  renderStatusPage,
  StatusTone,
  statusCard,
} from '../enrollment/enrollment-page.view';
import { html, Html, trustedHtml } from '../pages/html';
import { plural } from '../pages/plural';

/** Why a request's page shows no form: each is a final page (CONTRACT §7). */
export type AccessFinalReason =
  | 'unknown'
  | 'expired'
  | 'denied'
  | 'locked'
  | 'tooManyCodes'
  | 'used'
  | 'noLicense'
  | 'noOtpFactor'
  | 'forged';

const TEXT = {
  en: {
    enrollTitle: (resource: string) => `Set up your second factor for ${resource}`,
    codeTitle: (resource: string) => `Confirm sign-in to ${resource}`,
    codeIntro: (identity: string) => `Signed in as ${identity}. Open your authenticator app or token and enter the code it shows.`,
    codeLabel: '6-digit code',
    codePattern: '6 to 8 digits',
    submit: 'Confirm',
    expiresIn: (minutes: number) => `This request expires in ${minutes} ${plural('en', minutes, { one: 'minute', other: 'minutes' })}.`,
    wrongCode: (left: number) => `That code is not right. ${left} attempt(s) left.`,
    grantedTitle: 'Access granted',
    granted: 'Returning you to the application… If nothing happens, press Continue.',
    grantedNoCallback: 'Sign-in confirmed. You can close this page and return to the application.',
    grantedFramed: 'Sign-in confirmed. You can continue in the application.',
    continue: 'Continue',
    finalTitle: {
      unknown: 'Sign-in request not found',
      expired: 'This sign-in request has expired',
      denied: 'Access denied',
      locked: 'Access denied',
      tooManyCodes: 'Access denied',
      used: 'This sign-in request has already been used',
      noLicense: 'Access cannot be granted',
      noOtpFactor: 'Access cannot be granted',
      forged: 'The form could not be accepted',
    },
    final: {
      unknown: 'Check the link, or start signing in again from the application.',
      expired: 'Requests are valid for 15 minutes. Start signing in again from the application.',
      denied: 'This sign-in request was denied. Start signing in again from the application.',
      locked: 'Your account is locked. Contact your administrator.',
      tooManyCodes: 'Too many wrong codes. Start signing in again from the application.',
      used: 'Each request can be used once. Start signing in again from the application.',
      noLicense: 'Your organization has no free user licenses. Contact your administrator.',
      noOtpFactor: 'Your second factor cannot be used on this page. Ask your administrator for an enrollment link.',
      forged: 'Reload the page and enter the code again.',
    },
    reload: 'Reload the page',
  },
  ru: {
    enrollTitle: (resource: string) => `Настройка второго фактора для ${resource}`,
    codeTitle: (resource: string) => `Подтверждение входа в ${resource}`,
    codeIntro: (identity: string) => `Вход под именем ${identity}. Откройте приложение-аутентификатор или токен и введите показанный код.`,
    codeLabel: 'Код из 6 цифр',
    codePattern: 'От 6 до 8 цифр',
    submit: 'Подтвердить',
    expiresIn: (minutes: number) =>
      `Запрос действует ещё ${minutes} ${plural('ru', minutes, { one: 'минуту', few: 'минуты', many: 'минут', other: 'минуты' })}.`,
    wrongCode: (left: number) => `Неверный код. Осталось попыток: ${left}.`,
    grantedTitle: 'Доступ разрешён',
    granted: 'Возвращаем вас в приложение… Если ничего не происходит, нажмите «Продолжить».',
    grantedNoCallback: 'Вход подтверждён. Закройте эту страницу и вернитесь в приложение.',
    grantedFramed: 'Вход подтверждён. Можно продолжить работу в приложении.',
    continue: 'Продолжить',
    finalTitle: {
      unknown: 'Запрос на вход не найден',
      expired: 'Срок действия запроса истёк',
      denied: 'Доступ запрещён',
      locked: 'Доступ запрещён',
      tooManyCodes: 'Доступ запрещён',
      used: 'Этот запрос на вход уже использован',
      noLicense: 'Доступ не может быть предоставлен',
      noOtpFactor: 'Доступ не может быть предоставлен',
      forged: 'Форма не принята',
    },
    final: {
      unknown: 'Проверьте ссылку или начните вход в приложении заново.',
      expired: 'Запрос действует 15 минут. Начните вход в приложении заново.',
      denied: 'Запрос на вход отклонён. Начните вход в приложении заново.',
      locked: 'Ваша учётная запись заблокирована. Обратитесь к администратору.',
      tooManyCodes: 'Слишком много неверных кодов. Начните вход в приложении заново.',
      used: 'Каждый запрос можно использовать один раз. Начните вход в приложении заново.',
      noLicense: 'У вашей организации нет свободных лицензий. Обратитесь к администратору.',
      noOtpFactor: 'Ваш второй фактор нельзя использовать на этой странице. Попросите администратора прислать ссылку для подключения.',
      forged: 'Обновите страницу и введите код ещё раз.',
    },
    reload: 'Обновить страницу',
  },
} as const;

/** When the request expires (created + 15 minutes) and the server's now: the page shows the minutes left. */
export interface AccessExpiry {
  at: Date;
  now: Date;
}

export interface AccessEnrollModel extends EnrollmentFormModel {
  resourceName: string;
  expiry: AccessExpiry;
}

/** "expires in N minutes", N rounded up (never 0 while the page is shown), computed on the server. */
function expiryHint(lang: PageLanguage, expiry: AccessExpiry): Html {
  const minutes = Math.max(1, Math.ceil((expiry.at.getTime() - expiry.now.getTime()) / 60_000));
  return html`<p class="expiry">${ICONS.clock}<time datetime="${expiry.at.toISOString()}">${TEXT[lang].expiresIn(minutes)}</time></p>\n`;
}

export function renderAccessEnroll(lang: PageLanguage, nonce: string, model: AccessEnrollModel): Html {
  const title = TEXT[lang].enrollTitle(model.resourceName);
  return renderLayout(
    lang,
    nonce,
    title,
    html`<h1>${title}</h1>\n${enrollmentSection(lang, nonce, model, expiryHint(lang, model.expiry))}`,
  );
}

export interface AccessCodeModel {
  resourceName: string;
  identity: string;
  hidden: Record<string, string>;
  expiry: AccessExpiry;
  error?: { attemptsLeft: number };
}

/** The code prompt of an enrolled user: the code is all it asks for, so the field has the focus. */
export function renderAccessCode(lang: PageLanguage, nonce: string, model: AccessCodeModel): Html {
  const t = TEXT[lang];
  const title = t.codeTitle(model.resourceName);
  return renderLayout(
    lang,
    nonce,
    title,
    html`<h1>${title}</h1>
<p>${t.codeIntro(model.identity)}</p>
${expiryHint(lang, model.expiry)}<form method="post">
  ${hiddenInputs(model.hidden)}
  ${codeField(t.codeLabel, model.error ? t.wrongCode(model.error.attemptsLeft) : null, { autofocus: true, title: t.codePattern })}
  <button type="submit">${t.submit}</button>
</form>`,
  );
}

/**
 * The one script of a postMessage callback's success page (CONTRACT §8.8), the same text for every
 * request: the token and the target origins are data of the page (an escaped hidden input and its
 * attribute), never part of the script. Posts once per origin, only when the page is in a frame.
 */
export const POST_MESSAGE_SCRIPT =
  "(function () { var source = document.getElementById('accessToken'); if (!source || window.parent === window) return; " +
  "var token = source.value; (source.getAttribute('data-target-origins') || '').split(' ').forEach(function (origin) { " +
  'if (origin) window.parent.postMessage(token, origin); }); })();';

/**
 * Success: a form posting the accessToken to the client's callback, submitted by a nonce-guarded
 * script; the visible button is the path without script. A postMessage callback (CONTRACT §8.8) posts
 * no form: the fixed POST_MESSAGE_SCRIPT hands the token to `window.parent`, for each of
 * `targetOrigins` (the resource's frameOrigins, or `*`).
 */
export function renderAccessGranted(
  lang: PageLanguage,
  nonce: string,
  callback: AccessCallback | null,
  accessToken: string,
  targetOrigins: readonly string[],
): Html {
  const t = TEXT[lang];
  if (!callback) return renderStatusPage(lang, nonce, 'ok', 'check', t.grantedTitle, t.grantedNoCallback);
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
  return renderLayout(lang, nonce, t.grantedTitle, statusCard('ok', 'check', t.grantedTitle, handOver));
}

const FINAL_LOOK: Record<AccessFinalReason, [StatusTone, keyof typeof ICONS]> = {
  unknown: ['info', 'question'],
  expired: ['warn', 'clock'],
  denied: ['stop', 'cross'],
  locked: ['stop', 'lock'],
  tooManyCodes: ['stop', 'cross'],
  used: ['info', 'info'],
  noLicense: ['stop', 'cross'],
  noOtpFactor: ['stop', 'lock'],
  forged: ['warn', 'refresh'],
};

/** A request's final page: a card with a status icon, what happened and what to do next. */
export function renderAccessFinal(lang: PageLanguage, nonce: string, reason: AccessFinalReason): Html {
  const t = TEXT[lang];
  const [tone, icon] = FINAL_LOOK[reason];
  const action = reason === 'forged' ? html`<a class="btn" href="">${ICONS.refresh}<span>${t.reload}</span></a>` : null;
  return renderStatusPage(lang, nonce, tone, icon, t.finalTitle[reason], t.final[reason], action);
}
