import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** The session id and the CSRF token: 32 random bytes, base64url, given to the browser only. */
export function newConsoleToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a session id or CSRF token: a copy of the table opens no session. */
export function hashConsoleToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The mailed sign-in code: 8 random digits (the administrator types it or follows the link). */
export const SIGN_IN_CODE_PATTERN = /^[0-9]{8}$/;

export function newSignInCode(): string {
  return String(randomInt(0, 100_000_000)).padStart(8, '0');
}

/** A salted SHA-256 of the code: 10 minutes and 5 tries bound a guess, so a slow hash buys nothing. */
export function hashSignInCode(salt: Buffer, code: string): Buffer {
  return createHash('sha256').update(salt).update(code, 'utf8').digest();
}

export function newSignInCodeHash(code: string): { salt: Buffer; codeHash: Buffer } {
  const salt = randomBytes(16);
  return { salt, codeHash: hashSignInCode(salt, code) };
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
