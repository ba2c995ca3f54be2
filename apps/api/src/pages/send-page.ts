import { randomBytes } from 'node:crypto';
import { FastifyReply } from 'fastify';
import { Html } from './html';

/** A fresh nonce for one page: its inline style, and its scripts when it runs any. */
export function pageNonce(): string {
  return randomBytes(16).toString('base64');
}

/** What a page may do beyond showing itself, written into its Content-Security-Policy. */
export interface PagePolicy {
  /** the page runs inline scripts carrying the nonce */
  scripts: boolean;
  /** an origin its form posts to, besides its own (the callback of a granted access request) */
  formActionOrigin?: string;
  /** the origins that may frame the page; none: it refuses every frame (and sends X-Frame-Options: DENY) */
  frameAncestors: readonly string[];
  /** the page's script asks its own origin (the access page waiting for an approval by long poll) */
  connectSelf?: boolean;
}

/**
 * What a page tells other sites of its address: the origin alone, never the path (page URLs carry the
 * access request id or the enrollment token), and nothing to a less secure destination. Not
 * `no-referrer`: under it a browser sends `Origin: null` with the page's form POST to the callback, and
 * clients that check `Origin` against cross-site forgery refuse that POST.
 */
export const PAGE_REFERRER_POLICY = 'strict-origin';

/**
 * The one place a page is sent: strict CSP with the page's nonce (no source but our own inline style
 * and scripts under that nonce, images from ourselves, forms posting to ourselves or the given
 * origin), the referrer policy above, the framing rule, and the cookies the page binds its form with
 * (full `Set-Cookie` values).
 */
export function sendPage(
  res: FastifyReply,
  status: number,
  nonce: string,
  policy: PagePolicy,
  page: Html,
  cookies: readonly string[] = [],
): void {
  const scripts = policy.scripts ? `; script-src 'nonce-${nonce}'` : '';
  const connect = policy.connectSelf ? "; connect-src 'self'" : '';
  const formAction = policy.formActionOrigin ? `'self' ${policy.formActionOrigin}` : "'self'";
  const framed = policy.frameAncestors.length > 0;
  const frameAncestors = framed ? policy.frameAncestors.join(' ') : "'none'";
  res.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'${scripts}${connect}; form-action ${formAction}; frame-ancestors ${frameAncestors}; base-uri 'none'`,
  );
  res.header('Referrer-Policy', PAGE_REFERRER_POLICY);
  if (cookies.length > 0) res.header('Set-Cookie', cookies);
  if (!framed) res.header('X-Frame-Options', 'DENY');
  res.type('text/html; charset=utf-8');
  res.status(status).send(page.text);
}

/**
 * The answer to `HEAD` on a page: the headers of a page, no body, and nothing done. Link checkers and
 * link previews send HEAD; run as the page's GET it would register the user, record the visit or
 * grant a bypassed request, and the user's own visit would then find the request used.
 */
export function sendPageHead(res: FastifyReply): void {
  res.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'");
  res.header('Referrer-Policy', PAGE_REFERRER_POLICY);
  res.header('X-Frame-Options', 'DENY');
  res.type('text/html; charset=utf-8');
  res.status(200).send();
}
