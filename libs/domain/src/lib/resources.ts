import { ValidationFailed } from './domain-error';
import { cutText } from './text';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-requests';

/**
 * How a resource's access tokens are signed: `JwtHS256` keyed by the resource's API
 * secret (the default), or `JwtRS256` with the service's RSA key, published at /.well-known/jwks.json.
 */
export const TOKEN_FORMATS = ['JwtHS256', 'JwtRS256'] as const;
export type TokenFormatName = (typeof TOKEN_FORMATS)[number];
export const DEFAULT_TOKEN_FORMAT: TokenFormatName = 'JwtHS256';

/** At most this many origins may frame a resource's pages. */
export const RESOURCE_FRAME_ORIGINS_MAX = 20;
/** One origin of frameOrigins, as sent: longer is not an origin anyone uses. */
export const RESOURCE_FRAME_ORIGIN_MAX_CHARS = 300;
/** A refused value is named in the message, cut to this many characters: huge input is never echoed. */
const SHOWN_VALUE_MAX_CHARS = 100;

/** A value for an error message: JSON, cut short. */
function shown(value: unknown): string {
  let text: string;
  try {
    text =
      typeof value === 'string' ? JSON.stringify(cutText(value, SHOWN_VALUE_MAX_CHARS + 1)) : String(JSON.stringify(value) ?? typeof value);
  } catch {
    text = typeof value;
  }
  return text.length > SHOWN_VALUE_MAX_CHARS ? `${cutText(text, SHOWN_VALUE_MAX_CHARS)}…` : text;
}

/** `JwtHS256` or `JwtRS256`, in any case; the canonical spelling is returned. */
export function validateTokenFormat(raw: unknown): TokenFormatName {
  const format = TOKEN_FORMATS.find((known) => typeof raw === 'string' && known.toLowerCase() === raw.trim().toLowerCase());
  if (!format) throw new ValidationFailed(`tokenFormat must be one of: ${TOKEN_FORMATS.join(', ')}; got ${shown(raw)}.`);
  return format;
}

/** A host name the browser and a Content-Security-Policy read alike: labels, or a bracketed IPv6 address. */
const PLAIN_HOST = /^(?:(?:[a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:.]+\])$/i;
/** `scheme://host[:port]` with an optional `/`; no userinfo, path, query or fragment. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\\\s]+\/?$/i;

/**
 * One origin allowed to frame a resource's pages: `http(s)://host[:port]`, at most a
 * trailing `/`. Normalized as the browser writes it (`new URL(x).origin`: lower case, no default port),
 * because it is compared with `postMessage` target origins and written into `frame-ancestors`.
 */
export function validateFrameOrigin(raw: unknown): string {
  const refuse = () =>
    new ValidationFailed(
      `frameOrigins: ${shown(raw)} is not an origin; each entry must be scheme://host[:port] with scheme http or https.`,
    );
  if (typeof raw !== 'string') throw refuse();
  const text = raw.trim();
  if (text.length === 0 || text.length > RESOURCE_FRAME_ORIGIN_MAX_CHARS || !ORIGIN_SHAPE.test(text)) throw refuse();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse();
  }
  const plain = url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (!plain || (url.protocol !== 'http:' && url.protocol !== 'https:') || !PLAIN_HOST.test(url.hostname)) throw refuse();
  return url.origin;
}

/** frameOrigins: an array of at most RESOURCE_FRAME_ORIGINS_MAX origins, normalized, duplicates removed, order kept. */
export function validateFrameOrigins(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ValidationFailed('frameOrigins must be an array of origins (scheme://host[:port]).');
  if (raw.length > RESOURCE_FRAME_ORIGINS_MAX) {
    throw new ValidationFailed(`frameOrigins must hold at most ${RESOURCE_FRAME_ORIGINS_MAX} origins.`);
  }
  return [...new Set(raw.map(validateFrameOrigin))];
}

/**
 * How long a retired RSA signing key stays in the JWKS: the lifetime of the last token it signed
 * (ACCESS_TOKEN_TTL_SECONDS), plus TOKEN_SIGNING_KEY_GRACE_SECONDS for API instances that signed with
 * it for a few seconds after the rotation (their key cache) and for clocks of hosts that differ.
 */
export const TOKEN_SIGNING_KEY_GRACE_SECONDS = 5 * 60;
export const TOKEN_SIGNING_KEY_RETENTION_SECONDS = ACCESS_TOKEN_TTL_SECONDS + TOKEN_SIGNING_KEY_GRACE_SECONDS;

/** Whether a key retired at `retiredAt` (null: the active key) is still published at `now`. */
export function isSigningKeyPublished(retiredAt: Date | null, now: Date): boolean {
  return retiredAt === null || retiredAt.getTime() + TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000 > now.getTime();
}

/**
 * How long a rotated key is published before it signs (`TOKEN_KEY_PUBLISH_AHEAD`): self-service
 * portals load the JWKS once per process, so a key they have not seen must not sign their tokens
 * until they were likely restarted or reloaded. During that time the previous key goes on signing:
 * its `retired_at` is set to the moment the new key takes over.
 */
export const DEFAULT_TOKEN_KEY_PUBLISH_AHEAD_SECONDS = 24 * 60 * 60;
const DURATION_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };

/** `TOKEN_KEY_PUBLISH_AHEAD`: seconds, or a number with `s`, `m`, `h` or `d`; absent: 24 h; at most 30 days. */
export function parsePublishAhead(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_TOKEN_KEY_PUBLISH_AHEAD_SECONDS;
  const match = /^\s*(\d{1,7})\s*([smhd]?)\s*$/i.exec(raw);
  const seconds = match ? Number(match[1]) * DURATION_UNITS[match[2].toLowerCase()] : NaN;
  if (!Number.isFinite(seconds) || seconds > 30 * 86_400)
    throw new ValidationFailed('TOKEN_KEY_PUBLISH_AHEAD must be a duration such as 86400, 90m, 24h or 2d (at most 30 days).');
  return seconds;
}

/**
 * The key that signs at `now`: of the keys still signing (not retired, or retired in the future
 * because a successor is published ahead), the one retiring first; the newest key, without a
 * retirement, signs only once every earlier key's retirement has come.
 */
export function signingKeyAt<K extends { retiredAt: Date | null }>(keys: readonly K[], now: Date): K | null {
  const signing = keys.filter((key) => key.retiredAt === null || key.retiredAt.getTime() > now.getTime());
  const retiringFirst = signing
    .filter((key) => key.retiredAt !== null)
    .sort((a, b) => (a.retiredAt as Date).getTime() - (b.retiredAt as Date).getTime())[0];
  return retiringFirst ?? signing.find((key) => key.retiredAt === null) ?? null;
}
