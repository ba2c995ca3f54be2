import { ValidationFailed } from './domain-error';
import { validateUserEmail, validateUserIdentity } from './users';

/** CONTRACT §7: a request not decided within 15 minutes of its creation is Expired. */
export const ACCESS_REQUEST_TTL_MINUTES = 15;
/** CONTRACT §7: the fifth wrong code on one request makes it Denied. */
export const ACCESS_REQUEST_MAX_FAILED_CODES = 5;
/** The AccessToken JWT handed to the callback is valid for one hour (`exp` = `iat` + 3600). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** The request's `claims`, as JSON, at most this many characters: they travel in a hidden form field. */
export const ACCESS_REQUEST_CLAIMS_MAX_CHARS = 8192;
export const ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS = 2048;
export const ACCESS_REQUEST_PHONE_MAX_CHARS = 32;
/**
 * Wrong codes of one user, summed over the requests created in the last ACCESS_REQUEST_TTL_MINUTES:
 * from this many on, no code of that user is checked until older requests leave the window. Stops
 * guessing across many requests (each has only five tries) and through /access/requests/ra.
 */
export const ACCESS_USER_MAX_RECENT_FAILED_CODES = 10;

export const ACCESS_REQUEST_STATUSES = ['AwaitingAuthentication', 'Granted', 'Denied', 'Expired'] as const;
export type AccessRequestStatusName = (typeof ACCESS_REQUEST_STATUSES)[number];
export const CALLBACK_TARGETS = ['_self', '_parent', '_top'] as const;
export type CallbackTarget = (typeof CALLBACK_TARGETS)[number];
export const ACCESS_LANGUAGES = ['ru', 'en'] as const;
export type AccessLanguage = (typeof ACCESS_LANGUAGES)[number];

/** JWT claims the service sets itself; a request's `claims` cannot override them. */
export const RESERVED_TOKEN_CLAIMS = ['iss', 'aud', 'sub', 'jti', 'iat', 'exp', 'nbf'] as const;

export interface AccessCallback {
  action: string;
  target: CallbackTarget;
}

export interface AccessRequestInput {
  identity: string;
  email: string | null;
  phone: string | null;
  language: AccessLanguage;
  claims: Record<string, unknown>;
  callback: AccessCallback | null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Keys of a plain object matched case-insensitively (CONTRACT §4): the first spelling wins. */
function byLowerKey(value: Record<string, unknown>): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const [key, raw] of Object.entries(value)) if (!map.has(key.toLowerCase())) map.set(key.toLowerCase(), raw);
  return map;
}

/** `ru` or `en`, in any case; absent or null is `ru` (SPEC.md). */
export function validateAccessLanguage(raw: unknown): AccessLanguage {
  if (raw === undefined || raw === null) return 'ru';
  const language = ACCESS_LANGUAGES.find((known) => typeof raw === 'string' && known === raw.trim().toLowerCase());
  if (!language) throw new ValidationFailed(`Language must be one of: ${ACCESS_LANGUAGES.join(', ')}.`);
  return language;
}

/** An absolute http(s) URL without credentials: where the browser posts the AccessToken. */
export function validateCallbackAction(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
  const text = raw.trim();
  if (text.length > ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS) {
    throw new ValidationFailed(`Callback.Action must be at most ${ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS} characters.`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
  if (url.username || url.password) throw new ValidationFailed('Callback.Action must not carry credentials.');
  // the origin goes into the page's Content-Security-Policy (form-action): plain host names only
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$/i.test(url.hostname) && !/^\[[0-9a-f:.]+\]$/i.test(url.hostname)) {
    throw new ValidationFailed('Callback.Action must have a plain host name.');
  }
  return url.href;
}

/** `{action, target}`; absent or null means none (the resource polls instead); target defaults to `_self`. */
export function validateCallback(raw: unknown): AccessCallback | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) throw new ValidationFailed('Callback must be an object {action, target}.');
  const fields = byLowerKey(raw);
  const action = validateCallbackAction(fields.get('action'));
  const rawTarget = fields.get('target');
  if (rawTarget === undefined || rawTarget === null) return { action, target: '_self' };
  const target = CALLBACK_TARGETS.find((known) => typeof rawTarget === 'string' && known === rawTarget.trim().toLowerCase());
  if (!target) throw new ValidationFailed(`Callback.Target must be one of: ${CALLBACK_TARGETS.join(', ')}.`);
  return { action, target };
}

/** A JSON object of the client's own claims; absent or null is none. */
export function validateClaims(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw new ValidationFailed('Claims must be a JSON object.');
  if (JSON.stringify(raw).length > ACCESS_REQUEST_CLAIMS_MAX_CHARS) {
    throw new ValidationFailed(`Claims must be at most ${ACCESS_REQUEST_CLAIMS_MAX_CHARS} characters of JSON.`);
  }
  return raw;
}

export function validateAccessPhone(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw new ValidationFailed('Phone must be a string.');
  const phone = raw.trim();
  if (phone.length > ACCESS_REQUEST_PHONE_MAX_CHARS) throw new ValidationFailed(`Phone must be at most ${ACCESS_REQUEST_PHONE_MAX_CHARS} characters.`);
  return phone === '' ? null : phone;
}

/** The body of POST /access/requests (SPEC.md "Access requests"), field names in any case. */
export function validateAccessRequest(body: unknown): AccessRequestInput {
  if (!isPlainObject(body)) throw new ValidationFailed('The request body must be a JSON object.');
  const fields = byLowerKey(body);
  return {
    identity: validateUserIdentity(fields.get('identity')),
    email: validateUserEmail(fields.get('email')),
    phone: validateAccessPhone(fields.get('phone')),
    language: validateAccessLanguage(fields.get('language')),
    claims: validateClaims(fields.get('claims')),
    callback: validateCallback(fields.get('callback')),
  };
}

/** The body of POST /access/requests/ra: `{identity, passCode}`, names in any case. */
export function validatePassCodeRequest(body: unknown): { identity: string; passCode: string } {
  if (!isPlainObject(body)) throw new ValidationFailed('The request body must be a JSON object.');
  const fields = byLowerKey(body);
  const identity = validateUserIdentity(fields.get('identity'));
  const passCode = fields.get('passcode');
  if (typeof passCode !== 'string' || passCode.trim() === '') throw new ValidationFailed('PassCode must not be empty.');
  if (passCode.length > 64) throw new ValidationFailed('PassCode must be at most 64 characters.');
  return { identity, passCode: passCode.trim() };
}

export function accessRequestExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + ACCESS_REQUEST_TTL_MINUTES * 60_000);
}

/** The status as of `now`: a request still awaiting at its expiry is Expired, whatever the row says. */
export function effectiveAccessStatus(request: { status: AccessRequestStatusName; createdAt: Date }, now: Date): AccessRequestStatusName {
  if (request.status === 'AwaitingAuthentication' && now.getTime() >= accessRequestExpiresAt(request.createdAt).getTime()) return 'Expired';
  return request.status;
}

/**
 * The AccessToken payload (CONTRACT §7): the request's claims first, then the service's own, so a
 * client claim named like a reserved one is dropped rather than trusted.
 */
export function accessTokenClaims(
  claims: Record<string, unknown>,
  own: { iss: string; aud: string; sub: string; jti: string; iat: number },
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (!(RESERVED_TOKEN_CLAIMS as readonly string[]).includes(name)) payload[name] = value;
  }
  return { ...payload, iss: own.iss, aud: own.aud, sub: own.sub, jti: own.jti, iat: own.iat, exp: own.iat + ACCESS_TOKEN_TTL_SECONDS };
}
