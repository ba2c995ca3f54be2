import { AccessCallback } from '@twofold/domain';
import { codeField, EnrollmentFormModel, enrollmentSection, escapeHtml, hiddenInputs, PageLanguage, renderLayout } from '../enrollment/enrollment-page.view';

/** Why a request's page shows no form: each is a final page (CONTRACT §7). */
export type AccessFinalReason = 'unknown' | 'expired' | 'denied' | 'locked' | 'tooManyCodes' | 'used' | 'noLicense' | 'forged';

const TEXT = {
  en: {
    enrollTitle: (resource: string) => `Set up your second factor for ${resource}`,
    codeTitle: (resource: string) => `Confirm sign-in to ${resource}`,
    codeIntro: (identity: string) => `Signed in as ${identity}. Open your authenticator app or token and enter the code it shows.`,
    codeLabel: '6-digit code',
    submit: 'Confirm',
    wrongCode: (left: number) => `That code is not right. ${left} attempt(s) left.`,
    grantedTitle: 'Access granted',
    granted: 'Returning you to the application…',
    grantedNoCallback: 'Sign-in confirmed. You can return to the application.',
    continue: 'Continue',
    finalTitle: {
      unknown: 'Sign-in request not found',
      expired: 'This sign-in request has expired',
      denied: 'Access denied',
      locked: 'Access denied',
      tooManyCodes: 'Access denied',
      used: 'This sign-in request has already been used',
      noLicense: 'Access cannot be granted',
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
      forged: 'Reload the page and enter the code again.',
    },
    reload: 'Reload the page',
  },
  ru: {
    enrollTitle: (resource: string) => `Настройка второго фактора для ${resource}`,
    codeTitle: (resource: string) => `Подтверждение входа в ${resource}`,
    codeIntro: (identity: string) => `Вход под именем ${identity}. Откройте приложение-аутентификатор или токен и введите показанный код.`,
    codeLabel: 'Код из 6 цифр',
    submit: 'Подтвердить',
    wrongCode: (left: number) => `Неверный код. Осталось попыток: ${left}.`,
    grantedTitle: 'Доступ разрешён',
    granted: 'Возвращаем вас в приложение…',
    grantedNoCallback: 'Вход подтверждён. Можно вернуться в приложение.',
    continue: 'Продолжить',
    finalTitle: {
      unknown: 'Запрос на вход не найден',
      expired: 'Срок действия запроса истёк',
      denied: 'Доступ запрещён',
      locked: 'Доступ запрещён',
      tooManyCodes: 'Доступ запрещён',
      used: 'Этот запрос на вход уже использован',
      noLicense: 'Доступ не может быть предоставлен',
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
      forged: 'Обновите страницу и введите код ещё раз.',
    },
    reload: 'Обновить страницу',
  },
} as const;

export interface AccessEnrollModel extends EnrollmentFormModel {
  resourceName: string;
}

export function renderAccessEnroll(lang: PageLanguage, nonce: string, model: AccessEnrollModel): string {
  const title = TEXT[lang].enrollTitle(model.resourceName);
  return renderLayout(lang, nonce, title, `<h1>${escapeHtml(title)}</h1>\n${enrollmentSection(lang, model)}`);
}

export interface AccessCodeModel {
  resourceName: string;
  identity: string;
  hidden: Record<string, string>;
  error?: { attemptsLeft: number };
}

export function renderAccessCode(lang: PageLanguage, nonce: string, model: AccessCodeModel): string {
  const t = TEXT[lang];
  const title = t.codeTitle(model.resourceName);
  return renderLayout(
    lang,
    nonce,
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t.codeIntro(model.identity))}</p>
<form method="post">
  ${hiddenInputs(model.hidden)}
  ${codeField(t.codeLabel, model.error ? t.wrongCode(model.error.attemptsLeft) : null)}
  <button type="submit">${escapeHtml(t.submit)}</button>
</form>`,
  );
}

/**
 * Success: a form posting the AccessToken to the client's callback, submitted by a nonce-guarded
 * script; the visible button is the path without script.
 */
export function renderAccessGranted(lang: PageLanguage, nonce: string, callback: AccessCallback | null, accessToken: string): string {
  const t = TEXT[lang];
  if (!callback) {
    return renderLayout(lang, nonce, t.grantedTitle, `<div class="badge ok" aria-hidden="true">✓</div><h1>${escapeHtml(t.grantedTitle)}</h1><p>${escapeHtml(t.grantedNoCallback)}</p>`);
  }
  return renderLayout(
    lang,
    nonce,
    t.grantedTitle,
    `<div class="badge ok" aria-hidden="true">✓</div><h1>${escapeHtml(t.grantedTitle)}</h1>
<p role="status">${escapeHtml(t.granted)}</p>
<form method="post" action="${escapeHtml(callback.action)}" target="${escapeHtml(callback.target)}" id="callback">
  <input type="hidden" name="AccessToken" value="${escapeHtml(accessToken)}">
  <button type="submit">${escapeHtml(t.continue)}</button>
</form>
<script nonce="${nonce}">document.getElementById('callback').submit();</script>`,
  );
}

export function renderAccessFinal(lang: PageLanguage, nonce: string, reason: AccessFinalReason): string {
  const t = TEXT[lang];
  const title = t.finalTitle[reason];
  const action = reason === 'forged' ? `<p><a href="">${escapeHtml(t.reload)}</a></p>` : '';
  return renderLayout(lang, nonce, title, `<div class="badge stop" aria-hidden="true">✕</div><h1>${escapeHtml(title)}</h1><p>${escapeHtml(t.final[reason])}</p>${action}`);
}
