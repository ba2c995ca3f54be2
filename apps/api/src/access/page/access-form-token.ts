import { createHmac, KeyObject } from 'node:crypto';
import { purposeKey } from '../../config/purpose-keys';
import { isBrowserNonce, sameText } from './access-page-binding';

/** The hidden input that binds the page's form to its request and to the browser that loaded it. */
export const FORM_TOKEN_FIELD = 'formToken';

/**
 * Anti-forgery token of the access page's form: `<browser nonce>.<HMAC-SHA-256 of the request id and
 * that nonce>`, under a key derived (HKDF, its own `info`) from SECRET_ENCRYPTION_KEY, so it needs no
 * storage. The nonce is the one the page also set as its cookie (access-page-binding.ts): a token is
 * good only for its request, and, where the browser keeps the cookie, only in that browser.
 */
export class AccessFormTokens {
  private readonly key: KeyObject;

  constructor(encryptionKey: Buffer) {
    this.key = purposeKey(encryptionKey, 'twofold access-page form token');
  }

  issue(requestId: string, browserNonce: string): string {
    return `${browserNonce}.${this.mac(requestId, browserNonce)}`;
  }

  /** The browser nonce a genuine token of this request carries; null for anything else. Constant-time MAC check. */
  boundNonce(requestId: string, presented: unknown): string | null {
    if (typeof presented !== 'string') return null;
    const dot = presented.indexOf('.');
    const nonce = presented.slice(0, dot);
    if (dot < 0 || !isBrowserNonce(nonce)) return null;
    return sameText(presented.slice(dot + 1), this.mac(requestId, nonce)) ? nonce : null;
  }

  private mac(requestId: string, browserNonce: string): string {
    // both parts have fixed alphabets without '\n': the message cannot be read two ways
    return createHmac('sha256', this.key).update(`access-request:${requestId}\nbrowser:${browserNonce}`, 'utf8').digest('base64url');
  }
}
