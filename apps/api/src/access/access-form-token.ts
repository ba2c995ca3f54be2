import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The hidden input that binds the page's form to its request. */
export const FORM_TOKEN_FIELD = 'formToken';

/**
 * Anti-forgery token of the access page's form: HMAC-SHA-256 of the request id under a key derived
 * (HKDF) from SECRET_ENCRYPTION_KEY, so it needs no storage and differs per request.
 */
export class AccessFormTokens {
  private readonly key: Buffer;

  constructor(encryptionKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'twofold access-page form token', 32));
  }

  issue(requestId: string): string {
    return createHmac('sha256', this.key).update(`access-request:${requestId}`, 'utf8').digest('base64url');
  }

  /** Constant-time: both sides hashed to one length before the comparison. */
  verify(requestId: string, presented: unknown): boolean {
    if (typeof presented !== 'string' || presented === '') return false;
    const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
    return timingSafeEqual(digest(presented), digest(this.issue(requestId)));
  }
}
