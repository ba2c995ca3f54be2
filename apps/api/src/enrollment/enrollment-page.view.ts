/**
 * The enrollment link's page (`$ACCESS_URL/enroll/<token>`): the form of the enrollment section, and
 * its final pages, under the brand of the link's account (the product's name for an unknown link). The layout, texts, icons, style and Copy script are the pages module's.
 */

import { EnrollmentFormModel, enrollmentSection } from '../pages/enrollment-section';
import { html, Html } from '../pages/html';
import { messagesOf, PageLanguage } from '../pages/i18n/languages';
import { GoneReason } from '../pages/i18n/page-messages';
import { IconName, ICONS } from '../pages/icons';
import { renderLayout, renderStatusPage, StatusTone } from '../pages/layout';

/** The enrollment link's form: the section's model and when the link stops working. */
export interface EnrollmentLinkModel extends EnrollmentFormModel {
  expiresAt: Date;
}

/**
 * "This link works until 2026-05-21 10:00 UTC.": a link lives up to 30 days and is often opened
 * from a mail days later, so the moment itself rather than minutes left; UTC, as the mail says it.
 */
function linkExpiry(lang: PageLanguage, expiresAt: Date): Html {
  const at = expiresAt.toISOString().slice(0, 16).replace('T', ' ');
  return html`<p class="expiry">${ICONS.clock}<time datetime="${expiresAt.toISOString()}">${messagesOf(lang).enrollment.linkExpires(at)}</time></p>\n`;
}

export function renderEnrollmentForm(lang: PageLanguage, nonce: string, brand: string, model: EnrollmentLinkModel): Html {
  const t = messagesOf(lang).enrollment;
  return renderLayout(
    lang,
    nonce,
    brand,
    t.title,
    html`<h1>${t.title}</h1>\n${enrollmentSection(lang, nonce, model, linkExpiry(lang, model.expiresAt))}`,
  );
}

export function renderEnrollmentDone(lang: PageLanguage, nonce: string, brand: string): Html {
  const t = messagesOf(lang).enrollment;
  return renderStatusPage(lang, nonce, brand, 'ok', 'check', t.doneTitle, t.done);
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
