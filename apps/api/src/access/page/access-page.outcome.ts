import { AccessCallback } from '@twofold/domain';
import { PageLanguage } from '../../pages/i18n/languages';
import { PresentedBrowser } from './access-page-binding';
import { AccessCodeModel, AccessEnrollModel, AccessFinalReason } from './access-page.view';
import { AccessApprovalModel } from './access-page-approval.view';

/**
 * The page's language, its brand, and who may frame it: `frameAncestors` are CSP
 * `frame-ancestors` sources, empty when the page refuses to be framed, `['*']` for any origin. The
 * same list is where a postMessage callback posts the token. `brand` is the account's display name,
 * the product's name on the page of an unknown request.
 */
export type PageFrame = { lang: PageLanguage; brand: string; frameAncestors: readonly string[] };

/** What the page shows. A page with a form carries the browser nonce its form token is bound to, for its cookie. */
export type AccessPageOutcome = PageFrame &
  (
    | { kind: 'enroll'; model: AccessEnrollModel; browserNonce: string }
    | { kind: 'code'; model: AccessCodeModel; browserNonce: string }
    /** waiting for the user's approval on their phone */
    | { kind: 'approval'; model: AccessApprovalModel; browserNonce: string }
    | { kind: 'granted'; callback: AccessCallback | null; accessToken: string }
    | { kind: 'final'; reason: AccessFinalReason }
  );

/** The browser as the access page saw it: its address (behind TRUSTED_PROXIES), its page cookie and `Origin`. */
export interface Visitor {
  ip: string;
  browser: PresentedBrowser;
}
