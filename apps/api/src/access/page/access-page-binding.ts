import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_REQUEST_TTL_MINUTES } from '@twofold/domain';

/**
 * Login CSRF defence of the access page (docs/decisions/login-csrf.md): the page sets a random
 * browser nonce as a cookie of its request and embeds it, HMAC-bound, in its form token; a POST must
 * bring both, and must not come from another origin.
 */

const NONCE_BYTES = 16;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

export function newBrowserNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64url');
}

export function isBrowserNonce(text: string): boolean {
  return NONCE.test(text);
}

/** Constant-time: both sides hashed to one length before the comparison. */
export function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Where a POST says it comes from. `Sec-Fetch-Site` first (sent by every current browser, whatever the
 * referrer policy): only `same-origin` is ours. Without it, `Origin` against the origin of ACCESS_URL.
 * `Origin: null` says nothing: our pages' `Referrer-Policy: no-referrer` makes a browser send exactly
 * that on their own form POST, and so can any other page, so it counts as absent.
 */
export type OriginVerdict = 'ours' | 'absent' | 'foreign';

/** What a browser presented with a POST (or a visit): its cookie for this request, and its `Origin`. */
export interface PresentedBrowser {
  cookieNonce: string | null;
  origin: OriginVerdict;
}

/**
 * Whether a form POST comes from the browser its token was issued to:
 * - a POST another origin sent (`Sec-Fetch-Site` other than `same-origin`, or another `Origin`) is refused, always;
 * - a cookie, when presented, must hold the nonce the token carries;
 * - without the cookie, only a page meant for a frame is accepted, and only with our own `Origin`: a
 *   cross-site iframe in a browser that keeps no third-party cookies (Safari, blocked third-party
 *   cookies, plain http where `SameSite=None` cannot be set) never gets it back, and the `Origin`
 *   a browser puts on the frame's own form POST is then what proves it was not sent by another site;
 * - no word on its origin (`Origin` absent or `null`, no `Sec-Fetch-Site`: older browsers, and any
 *   browser on our no-referrer page without `Sec-Fetch-Site`) is accepted only when the cookie holds.
 */
export function formFromItsBrowser(tokenNonce: string | null, browser: PresentedBrowser, framable: boolean): boolean {
  if (tokenNonce === null || browser.origin === 'foreign') return false;
  if (browser.cookieNonce !== null) return sameText(browser.cookieNonce, tokenNonce);
  return framable && browser.origin === 'ours';
}

/**
 * The page's cookie, one per request (two tabs of two sign-ins never overwrite each other's), living
 * as long as a request may. Over https: `__Host-` (no subdomain can plant or replace it: `Secure`,
 * `Path=/`, no `Domain`); `SameSite=Strict` for a page that is never framed; `SameSite=None;
 * Partitioned` for a page meant for a frame, the only cookie a cross-site iframe is given back, kept
 * in the framing site's partition (CHIPS). Over plain http (development, tests) neither `Secure` nor
 * `SameSite=None` can be used, so the cookie is `SameSite=Strict` and a cross-site frame goes without.
 */
export class AccessPageBinding {
  private readonly origin: string;
  private readonly secure: boolean;

  constructor(accessUrl: string) {
    const url = new URL(accessUrl);
    this.origin = url.origin;
    this.secure = url.protocol === 'https:';
  }

  cookieName(requestId: string): string {
    return `${this.secure ? '__Host-' : ''}twofold-access-${requestId.toLowerCase()}`;
  }

  presented(requestId: string, headers: { cookie?: string; origin?: string; 'sec-fetch-site'?: string | string[] }): PresentedBrowser {
    return {
      cookieNonce: this.cookieNonce(requestId, headers.cookie),
      origin: this.originVerdict(headers.origin, headers['sec-fetch-site']),
    };
  }

  setCookie(requestId: string, nonce: string, framable: boolean): string {
    const sameSite = this.secure && framable ? 'SameSite=None; Partitioned' : 'SameSite=Strict';
    const secure = this.secure ? '; Secure' : '';
    return `${this.cookieName(requestId)}=${nonce}; Path=/; Max-Age=${ACCESS_REQUEST_TTL_MINUTES * 60}; HttpOnly${secure}; ${sameSite}`;
  }

  /** The nonce of this request's cookie; null when absent, repeated with different values, or not a nonce. */
  private cookieNonce(requestId: string, header: string | undefined): string | null {
    if (!header) return null;
    const name = this.cookieName(requestId);
    const values = new Set(
      header
        .split(';')
        .map((pair) => pair.trim())
        .filter((pair) => pair.startsWith(`${name}=`))
        .map((pair) => pair.slice(name.length + 1)),
    );
    const [value] = values;
    return values.size === 1 && isBrowserNonce(value) ? value : null;
  }

  private originVerdict(origin: string | undefined, fetchSite: string | string[] | undefined): OriginVerdict {
    if (fetchSite !== undefined) return fetchSite === 'same-origin' ? 'ours' : 'foreign';
    if (origin === undefined || origin === 'null') return 'absent';
    return origin === this.origin ? 'ours' : 'foreign';
  }
}
