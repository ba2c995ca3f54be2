import { ApprovalFactorKind } from '@twofold/domain';
import { hiddenInputs } from '../../pages/form-fields';
import { html, Html, trustedHtml } from '../../pages/html';
import { PageLanguage } from '../../pages/i18n/languages';
import { renderLayout } from '../../pages/layout';

/** The access page asking for an approval on the user's phone. */
export interface AccessApprovalModel {
  resourceName: string;
  identity: string;
  /** the two-digit number the user picks on the device */
  number: number;
  factor: ApprovalFactorKind;
  /** the form token and the `approval` field: the form that applies the answer */
  hidden: Record<string, string>;
  /** the long poll, relative to the page's own URL */
  pollPath: string;
  /** the user also has a code factor: "enter a code instead" */
  codeInstead: boolean;
  /** when the request expires, as the other access views take it (AccessExpiry) */
  expiry: { at: Date; now: Date };
}

const TEXTS = {
  en: {
    title: (resource: string) => `Confirm sign-in to ${resource}`,
    intro: (identity: string, factor: ApprovalFactorKind) =>
      `Signed in as ${identity}. We sent a request to ${factor === 'Telegram' ? 'your Telegram' : 'your phone'}: pick this number there.`,
    waiting: 'Waiting for your confirmation…',
    continue: 'I have confirmed: continue',
    codeInstead: 'Enter a code instead',
    undeliverable: 'Could not deliver the confirmation request to your phone. Enter the code from your authenticator app or token.',
  },
  ru: {
    title: (resource: string) => `Подтверждение входа в ${resource}`,
    intro: (identity: string, factor: ApprovalFactorKind) =>
      `Вход под именем ${identity}. Мы отправили запрос ${factor === 'Telegram' ? 'в ваш Telegram' : 'на ваш телефон'}: выберите там это число.`,
    waiting: 'Ждём вашего подтверждения…',
    continue: 'Я подтвердил: продолжить',
    codeInstead: 'Ввести код',
    undeliverable: 'Не удалось доставить запрос подтверждения на ваш телефон. Введите код из приложения-аутентификатора или токена.',
  },
} as const;

/** What the code prompt says when the approval could not be asked. */
export function undeliverableText(lang: PageLanguage): string {
  return TEXTS[lang].undeliverable;
}

/**
 * The one script of the approval view, the same text for every request: it asks the page's long
 * poll (its path is data of the form) until the approval is decided, then posts the form, which applies
 * the answer and ends the page as usual (the callback's form post, or `postMessage` in a frame). The
 * visible button is the path without script.
 */
export const APPROVAL_POLL_SCRIPT =
  "(function () { var form = document.getElementById('approval'); if (!form || !window.fetch) return; " +
  "var path = form.getAttribute('data-poll'); " +
  "function poll() { fetch(path, { cache: 'no-store', credentials: 'same-origin' })" +
  ".then(function (res) { return res.ok || res.status === 404 ? res.json() : { status: 'retry' }; })" +
  ".then(function (state) { if (state.status === 'decided') form.submit(); else if (state.status === 'pending') poll(); else setTimeout(poll, 2000); })" +
  '.catch(function () { setTimeout(poll, 2000); }); } poll(); })();';

export function renderAccessApproval(lang: PageLanguage, nonce: string, brand: string, model: AccessApprovalModel): Html {
  const t = TEXTS[lang];
  const title = t.title(model.resourceName);
  const codeLink = model.codeInstead ? html`<p><a href="?code" id="code-instead">${t.codeInstead}</a></p>\n` : null;
  return renderLayout(
    lang,
    nonce,
    brand,
    title,
    html`<h1>${title}</h1>
<p>${t.intro(model.identity, model.factor)}</p>
<p class="approval-number" id="approval-number" aria-live="polite"><strong>${String(model.number)}</strong></p>
<p role="status">${t.waiting}</p>
<form method="post" id="approval" data-poll="${model.pollPath}">
  ${hiddenInputs(model.hidden)}
  <button type="submit">${t.continue}</button>
</form>
${codeLink}<script nonce="${nonce}">${trustedHtml(APPROVAL_POLL_SCRIPT)}</script>`,
  );
}
