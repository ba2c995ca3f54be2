import { EnrollmentFormModel, enrollmentSection } from '../../pages/enrollment-section';
import { codeField } from '../../pages/form-fields';
import { html, Html, trustedHtml } from '../../pages/html';
import { PageLanguage } from '../../pages/i18n/languages';
import { mobileAppSection, MobileAppSectionModel } from '../../pages/mobile-app-section';
import { IconName } from '../../pages/icons';
import { renderLayout, renderStatusPage, StatusTone } from '../../pages/layout';
import { PortalFactorKind } from '../self-service-factors';
import { MyFactorsFinalReason, myFactorsMessagesOf, MyFactorsNotice } from './my-factors.messages';
import { recoveryCodesSection } from './my-factors-recovery.view';

export interface MyFactorsListModel {
  identity: string;
  factors: { id: string; kind: PortalFactorKind; label: string; renamable: boolean }[];
  /** a factor was confirmed on this page a moment ago: changes are offered */
  checked: boolean;
  /** the user has a factor whose code this page can check */
  canCheck: boolean;
  /** a Telegram bot is configured: the page offers binding a chat */
  telegram: boolean;
  /** the Twofold Authenticator app is offered (MOBILE_APP_OFFER is not turned off) */
  mobileApp?: boolean;
  notice?: MyFactorsNotice;
  wrongCode?: { attemptsLeft: number };
  /** the user's unspent recovery codes; absent for a user without any factor (there is nothing to recover yet) */
  recoveryCodesLeft?: number;
}

/** One form of the page: what it does is its `action` field. */
export function actionForm(action: string, body: Html, fields: Record<string, string> = {}): Html {
  return html`<form method="post" class="inline"><input type="hidden" name="action" value="${action}">${Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}${body}</form>`;
}

/**
 * The page where a user manages their own factors, opened from a self-service portal: the factors,
 * and once the user confirmed a code of one of them, rename, remove (never the only one) and add an
 * authenticator app. Everything the user or an administrator named is escaped by `html`.
 */
export function renderMyFactorsList(lang: PageLanguage, nonce: string, brand: string, model: MyFactorsListModel): Html {
  const t = myFactorsMessagesOf(lang);
  const notice = model.notice ? html`<p class="notice" role="status">${t.notices[model.notice]}</p>` : null;
  const onlyOne = model.factors.length <= 1;
  const rows = model.factors.map((factor) => {
    const changes = model.checked
      ? html`${
          factor.renamable
            ? actionForm(
                'rename',
                html`<label for="name-${factor.id}">${t.nameLabel}</label><input id="name-${factor.id}" name="name" value="${factor.label}" maxlength="64" required><button type="submit">${t.rename}</button>`,
                { id: factor.id },
              )
            : null
        }${onlyOne ? html`<p class="muted">${t.onlyOne}</p>` : actionForm('remove', html`<button type="submit" class="danger">${t.remove}</button>`, { id: factor.id })}`
      : null;
    return html`<li data-testid="factor" data-kind="${factor.kind}"><span class="muted">${t.kinds[factor.kind]}</span> <strong data-testid="factor-label">${factor.label}</strong>${changes}</li>`;
  });
  const list = model.factors.length > 0 ? html`<ul class="factors">${rows}</ul>` : html`<p>${t.none}</p>`;
  let next: Html | null = null;
  if (model.checked) {
    next = html`${actionForm('add-start', html`<button type="submit">${t.add}</button>`)}${model.telegram ? actionForm('telegram-start', html`<button type="submit">${t.addTelegram}</button>`) : null}${
      model.mobileApp ? actionForm('mobile-app-start', html`<button type="submit">${t.addMobileApp}</button>`) : null
    }`;
  } else if (model.canCheck) {
    const error = model.wrongCode ? t.wrongCode(model.wrongCode.attemptsLeft) : null;
    next = html`<p>${t.confirmIntro}</p>${actionForm('check', html`${codeField(t.codeLabel, error, { title: t.codeTitle })}<button type="submit">${t.confirm}</button>`)}`;
  } else {
    next = html`<p class="muted">${t.cannotConfirm}</p>`;
  }
  return renderLayout(
    lang,
    nonce,
    brand,
    t.title,
    html`<h1>${t.title}</h1>
<p>${t.intro(model.identity)}</p>
${notice}${list}
${next}${model.recoveryCodesLeft === undefined ? null : recoveryCodesSection(lang, model.recoveryCodesLeft, model.checked, actionForm)}`,
  );
}

/** Adding an authenticator app: the enrollment section of the other pages, its form confirming the app's first code. */
export function renderMyFactorsEnroll(lang: PageLanguage, nonce: string, brand: string, model: EnrollmentFormModel): Html {
  const t = myFactorsMessagesOf(lang);
  return renderLayout(
    lang,
    nonce,
    brand,
    t.addTitle,
    html`<h1>${t.addTitle}</h1>\n${enrollmentSection(lang, nonce, { ...model, hidden: { action: 'add-confirm' } })}`,
  );
}

/** Binding a Telegram chat: the bot's `/start` link and its QR code; the list shows the chat once the bot bound it. */
export function renderMyFactorsTelegram(lang: PageLanguage, nonce: string, brand: string, model: { url: string; qrSvg: string }): Html {
  const t = myFactorsMessagesOf(lang);
  return renderLayout(
    lang,
    nonce,
    brand,
    t.addTelegram,
    html`<h1>${t.addTelegram}</h1>
<p>${t.telegramIntro}</p>
<p><a class="btn" href="${model.url}" data-testid="telegram-link">${t.telegramOpen}</a></p>
<div class="qr" role="img" aria-label="${t.telegramQr}">${trustedHtml(model.qrSvg)}</div>
${actionForm('list', html`<button type="submit">${t.telegramDone}</button>`)}`,
  );
}

/**
 * Adding the Twofold Authenticator app: its link and QR code carrying a token of this page; once the
 * app enrolled, the page's script posts the list form (the new device is on it); without scripts the
 * same button goes back by hand.
 */
export function renderMyFactorsMobileApp(lang: PageLanguage, nonce: string, brand: string, model: MobileAppSectionModel): Html {
  const t = myFactorsMessagesOf(lang);
  return renderLayout(
    lang,
    nonce,
    brand,
    t.addMobileApp,
    html`<h1>${t.addMobileApp}</h1>
${mobileAppSection(lang, nonce, model, { continuation: 'submit', heading: false })}
<form method="post" class="inline" id="mobile-app-continue"><input type="hidden" name="action" value="list"><button type="submit">${t.telegramDone}</button></form>`,
  );
}

const FINAL_LOOK: Record<MyFactorsFinalReason, [StatusTone, IconName]> = {
  unknown: ['info', 'question'],
  expired: ['warn', 'clock'],
  otherBrowser: ['stop', 'cross'],
  tooManyCodes: ['stop', 'cross'],
  forged: ['stop', 'cross'],
};

export function renderMyFactorsFinal(lang: PageLanguage, nonce: string, brand: string, reason: MyFactorsFinalReason): Html {
  const t = myFactorsMessagesOf(lang);
  const [tone, icon] = FINAL_LOOK[reason];
  return renderStatusPage(lang, nonce, brand, tone, icon, t.finalTitle[reason], t.final[reason]);
}
