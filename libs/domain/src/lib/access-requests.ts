import { ValidationFailed } from './domain-error';
import { InputFields, isPlainObject } from './input';
import { GROUP_NAME_MAX_LENGTH, GROUP_NAMES_MAX_PER_REQUEST } from './groups';
import { validateUserEmail } from './users';
import { DEFAULT_IDENTITY_FORMAT, IdentityFormat, parseUserIdentity } from './identity-format';

/** A request not decided within 15 minutes of its creation is Expired. */
export const ACCESS_REQUEST_TTL_MINUTES = 15;
/** The fifth wrong code on one request makes it Denied. */
export const ACCESS_REQUEST_MAX_FAILED_CODES = 5;
/** The AccessToken JWT handed to the callback is valid for one hour (`exp` = `iat` + 3600). */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** The request's `claims`, as JSON, at most this many characters: they travel in a hidden form field. */
export const ACCESS_REQUEST_CLAIMS_MAX_CHARS = 8192;
export const ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS = 2048;
export const ACCESS_REQUEST_PHONE_MAX_CHARS = 32;

export const ACCESS_REQUEST_STATUSES = ['AwaitingAuthentication', 'Granted', 'Denied', 'Expired'] as const;
export type AccessRequestStatusName = (typeof ACCESS_REQUEST_STATUSES)[number];
export const CALLBACK_TARGETS = ['_self', '_parent', '_top'] as const;
export type CallbackTarget = (typeof CALLBACK_TARGETS)[number];
export const ACCESS_LANGUAGES = ['ru', 'en'] as const;
export type AccessLanguage = (typeof ACCESS_LANGUAGES)[number];

/** JWT claims the service sets itself; a request's `claims` cannot override them. */
export const RESERVED_TOKEN_CLAIMS = ['iss', 'aud', 'sub', 'jti', 'iat', 'exp', 'nbf', 'amr'] as const;

/**
 * How the holder of a token was authenticated (`amr`, RFC 8176 style): `otp`, a code was checked;
 * `bypass`, the user's address is on a Bypass IP list and no code was asked; `mca`, the user
 * confirmed on another channel (an approval in Telegram or the mobile app); `bypass_code`, a helpdesk
 * bypass code an administrator handed out; `recovery_code`, one of the user's recovery codes.
 */
export type AuthenticationMethod = 'otp' | 'bypass' | 'mca' | 'bypass_code' | 'recovery_code';

/** The `amr` of a grant by a standby code (standby-codes.ts); null for any other factor. */
export function standbyCodeAuthenticationMethod(authenticator: string | null | undefined): AuthenticationMethod | null {
  if (authenticator === 'BypassCode') return 'bypass_code';
  if (authenticator === 'RecoveryCode') return 'recovery_code';
  return null;
}

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
  /** groups a user registered by this request joins, those of them that exist */
  signUpGroups: string[];
}

/**
 * `language` may be any string (clients send any two-letter ISO code, `en-US`, …):
 * `en…` is English, anything else, absent or null the default, Russian. Never a refusal.
 */
export function accessLanguageOf(raw: unknown): AccessLanguage {
  if (typeof raw !== 'string') return 'ru';
  return /^\s*en(?![a-z])/i.test(raw) ? 'en' : 'ru';
}

/**
 * `groupPolicyPreset.signUpGroups` is one string of group names separated by `;`
 * (RADIUS adapters send `""` when none): trimmed, empty ones and repeats (case-insensitively) dropped.
 * Names that no group can have (too long) are dropped like names of groups that do not exist.
 */
export function parseSignUpGroups(groupPolicyPreset: unknown): string[] {
  const raw = InputFields.lenient(groupPolicyPreset).get('signupgroups');
  if (typeof raw !== 'string') return [];
  const names: string[] = [];
  const seen = new Set<string>();
  for (const name of raw.split(';').map((part) => part.trim())) {
    if (name === '' || name.length > GROUP_NAME_MAX_LENGTH || seen.has(name.toLowerCase())) continue;
    if (names.length === GROUP_NAMES_MAX_PER_REQUEST) break;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names;
}

/**
 * The one `javascript:` action accepted, sent by the AD FS and Keycloak integrations,
 * which open the access page in an iframe: ``javascript:window.parent.postMessage($`AccessToken`,'*')``.
 * The scheme is matched case-insensitively (browsers and RFC 3986 read `JavaScript:` as `javascript:`),
 * everything after it case-sensitively (JavaScript is: `window.parent.PostMessage` is another
 * function, so another shape, refused). Nothing of the action is ever run or put into a page: it
 * only selects the page's one fixed postMessage script.
 */
export const POST_MESSAGE_CALLBACK_ACTION =
  /^[jJ][aA][vV][aA][sS][cC][rR][iI][pP][tT]:\s*window\.parent\.postMessage\(\s*\$`AccessToken`\s*,\s*(['"])\*\1\s*\)\s*;?$/;

/** Whether a callback action (as stored: trimmed) is the one postMessage callback the AD FS and Keycloak integrations send. */
export function isPostMessageCallback(action: string): boolean {
  return POST_MESSAGE_CALLBACK_ACTION.test(action.trim());
}

/**
 * A request is meant for a frame when its callback is the postMessage one, or when its
 * target is `_parent` or `_top` (used when the page is in an iframe).
 */
export function isCallbackForFrame(callback: { action: string | null; target: string | null } | null): boolean {
  if (!callback) return false;
  return (
    (callback.action !== null && isPostMessageCallback(callback.action)) || callback.target === '_parent' || callback.target === '_top'
  );
}

/** `scheme://host[:port]` exactly as a browser serialises an http(s) origin, with a plain host name. */
function isPlainHttpOrigin(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin !== text) return false;
  return /^([a-z0-9-]+\.)*[a-z0-9-]+$/.test(url.hostname) || /^\[[0-9a-f:.]+\]$/.test(url.hostname);
}

/**
 * Who may frame a request's pages, as CSP `frame-ancestors` sources, and so where its postMessage
 * callback posts the token: nobody (`[]`) for a request not meant for a frame; the
 * resource's `frameOrigins` when it has any; else any origin (`['*']`). An origin that is not a plain
 * `scheme://host[:port]` is dropped (it would break the CSP header), never widened to `*`.
 */
export function accessPageFrameAncestors(
  callback: { action: string | null; target: string | null } | null,
  resourceFrameOrigins: readonly string[] | null | undefined,
): string[] {
  if (!isCallbackForFrame(callback)) return [];
  const configured = resourceFrameOrigins ?? [];
  if (configured.length === 0) return ['*'];
  return [...new Set(configured.filter(isPlainHttpOrigin))];
}

/**
 * An absolute http(s) URL without credentials, where the browser posts the accessToken; or the
 * postMessage callback of the AD FS and Keycloak integrations, stored as sent (trimmed). Any other `javascript:`, `data:` or
 * non-http(s) action is refused.
 */
export function validateCallbackAction(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
  const text = raw.trim();
  if (text.length > ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS) {
    throw new ValidationFailed(`Callback.Action must be at most ${ACCESS_REQUEST_CALLBACK_URL_MAX_CHARS} characters.`);
  }
  if (isPostMessageCallback(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ValidationFailed('Callback.Action must be an absolute http or https URL.');
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
  const fields = InputFields.of(raw, 'Callback must be an object {action, target}.');
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
  if (phone.length > ACCESS_REQUEST_PHONE_MAX_CHARS)
    throw new ValidationFailed(`Phone must be at most ${ACCESS_REQUEST_PHONE_MAX_CHARS} characters.`);
  return phone === '' ? null : phone;
}

/**
 * The profile fields a client copies from its directory (`email`, `phone`): kept when usable, else
 * ignored. A directory's odd value must not stop its users' sign-in.
 */
function usableOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (error instanceof ValidationFailed) return null;
    throw error;
  }
}

/**
 * The body of POST /access/requests, field names in any case; unknown
 * fields ignored, null the same as absent. The identity is normalized by the account's
 * identity format.
 */
export function validateAccessRequest(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): AccessRequestInput {
  const fields = InputFields.ofBody(body);
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    email: usableOrNull(() => validateUserEmail(fields.get('email'))),
    phone: usableOrNull(() => validateAccessPhone(fields.get('phone'))),
    language: accessLanguageOf(fields.get('language')),
    claims: validateClaims(fields.get('claims')),
    callback: validateCallback(fields.get('callback')),
    signUpGroups: parseSignUpGroups(fields.get('grouppolicypreset')),
  };
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
 * The AccessToken payload: the request's claims first, then the service's own, so a
 * client claim named like a reserved one is dropped rather than trusted.
 */
export function accessTokenClaims(
  claims: Record<string, unknown>,
  own: { iss: string; aud: string; sub: string; jti: string; iat: number; amr?: readonly string[] },
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (!(RESERVED_TOKEN_CLAIMS as readonly string[]).includes(name)) payload[name] = value;
  }
  const amr = own.amr === undefined ? {} : { amr: [...own.amr] };
  return {
    ...payload,
    iss: own.iss,
    aud: own.aud,
    sub: own.sub,
    jti: own.jti,
    ...amr,
    iat: own.iat,
    exp: own.iat + ACCESS_TOKEN_TTL_SECONDS,
  };
}
