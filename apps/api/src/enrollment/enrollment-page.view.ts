/**
 * The enrollment link's page (`$ACCESS_URL/enroll/<token>`): the form of the enrollment section, and
 * its final pages, under the brand of the link's account (the product's name for an unknown link). The layout, texts, icons, style and Copy script are the pages module's.
 */

import { EnrollmentFormModel, enrollmentSection } from '../pages/enrollment-section';
import { html, Html } from '../pages/html';
import { messagesOf, PageLanguage } from '../pages/i18n/languages';
import { GoneReason } from '../pages/i18n/page-messages';
import { IconName } from '../pages/icons';
import { renderLayout, renderStatusPage, StatusTone, statusCard } from '../pages/layout';
import { recoveryCodesBlock } from '../pages/recovery-codes';
import { telegramSection, TelegramSectionModel } from '../pages/telegram-section';
import { mobileAppSection, MobileAppSectionModel } from '../pages/mobile-app-section';

export type { EnrollmentFormModel } from '../pages/enrollment-section';

export function renderEnrollmentForm(
  lang: PageLanguage,
  nonce: string,
  brand: string,
  model: EnrollmentFormModel,
  telegram?: TelegramSectionModel,
  mobileApp?: MobileAppSectionModel,
): Html {
  const t = messagesOf(lang).enrollment;
  const offer = telegram ? telegramSection(lang, nonce, telegram, { continues: false }) : null;
  // the app's own setup is the whole enrollment: the page says so and the link may be left unused
  const app = mobileApp ? mobileAppSection(lang, nonce, mobileApp, { continuation: 'stay' }) : null;
  return renderLayout(lang, nonce, brand, t.title, html`<h1>${t.title}</h1>\n${enrollmentSection(lang, nonce, model)}${offer}${app}`);
}

/** Done; a user who had no recovery codes left gets ten with the enrollment, shown this once under the confirmation. */
export function renderEnrollmentDone(lang: PageLanguage, nonce: string, brand: string, recoveryCodes?: readonly string[]): Html {
  const t = messagesOf(lang).enrollment;
  if (!recoveryCodes) return renderStatusPage(lang, nonce, brand, 'ok', 'check', t.doneTitle, t.done);
  return renderLayout(
    lang,
    nonce,
    brand,
    t.doneTitle,
    html`${statusCard('ok', 'check', t.doneTitle, html`<p>${t.done}</p>`)}${recoveryCodesBlock(lang, recoveryCodes, 'h2')}`,
  );
}

export type { GoneReason } from '../pages/i18n/page-messages';

const GONE_LOOK: Record<GoneReason, [StatusTone, IconName]> = {
  expired: ['warn', 'clock'],
  used: ['info', 'info'],
  revoked: ['stop', 'cross'],
  unknown: ['info', 'question'],
};

export function renderEnrollmentGone(lang: PageLanguage, nonce: string, brand: string, reason: GoneReason): Html {
  const t = messagesOf(lang).enrollment;
  const [tone, icon] = GONE_LOOK[reason];
  return renderStatusPage(lang, nonce, brand, tone, icon, t.goneTitle, t[reason]);
}
