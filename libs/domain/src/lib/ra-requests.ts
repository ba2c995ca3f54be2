import { isIP } from 'node:net';
import { AccessLanguage, accessLanguageOf } from './access-requests';
import { InputFields } from './input';
import { ValidationFailed } from './domain-error';
import { cutText } from './text';
import { DEFAULT_IDENTITY_FORMAT, IdentityFormat, parseUserIdentity } from './identity-format';

/**
 * The `ra` family of CONTRACT §8.2-8.4: `POST /access/requests/ra`, `/ra/challenge` and `/md`, used by
 * clients without a browser (a RADIUS adapter in front of a VPN, a directory server's LDAP bind).
 */

/** CONTRACT §8.2: a RADIUS client parses the status into an enum of exactly these and fails on any other. */
export const RA_STATUSES = ['AwaitingAuthentication', 'Granted', 'Denied'] as const;
export type RaStatus = (typeof RA_STATUSES)[number];

/** A pass code or challenge longer than any code or delivery letter is refused, never stored or compared. */
export const PASS_CODE_MAX_CHARS = 64;

/**
 * CONTRACT §8.3: `passCode` letters that ask for a delivery method instead of carrying a code
 * (Telegram, mobile push, SMS, call). Twofold delivers none of them yet.
 */
export const DELIVERY_METHODS = { t: 'telegram', m: 'push', s: 'sms', c: 'call' } as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[keyof typeof DELIVERY_METHODS];

/** What a `passCode` or `challenge` asks for: nothing yet (the first step), a delivery method, or a code check. */
export type PassCodeIntent = { kind: 'none' } | { kind: 'delivery'; method: DeliveryMethod } | { kind: 'code'; code: string };

export interface RaRequestInput {
  identity: string;
  passCodeIntent: PassCodeIntent;
  language: AccessLanguage;
  /** the user's address as the client reports it (`ip`, else `callingStationId` when it is an IP address) */
  userIp: string | null;
}

export interface RaChallengeInput {
  identity: string;
  challenge: PassCodeIntent;
  /** the `id` of the `ra` answer that started the flow; null when it is not a request id at all */
  requestId: string | null;
  language: AccessLanguage;
}

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request's language (CONTRACT §8.5) read from a body that may not even be an object: for refusals too. */
export function raLanguageOf(body: unknown): AccessLanguage {
  return accessLanguageOf(InputFields.lenient(body).get('language'));
}

/** The identity a refused body named, when it named one: echoed in the refusal's model. */
export function raIdentityOf(body: unknown): string | null {
  const identity = InputFields.lenient(body).get('identity');
  return typeof identity === 'string' && identity.trim() !== '' ? cutText(identity.trim(), 256) : null;
}

/**
 * A `passCode` or `challenge`: null, absent or blank is no code yet (the two-step flow's first call,
 * CONTRACT §8.3); one of the letters `t m s c` asks for a delivery method; anything else is a code to
 * check (spaces inside are what people type from a token's display, so they are dropped).
 */
export function parsePassCode(raw: unknown, field: string): PassCodeIntent {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  if (raw.length > PASS_CODE_MAX_CHARS) throw new ValidationFailed(`${field} must be at most ${PASS_CODE_MAX_CHARS} characters.`);
  const text = raw.replace(/\s+/g, '');
  if (text === '') return { kind: 'none' };
  const method = DELIVERY_METHODS[text.toLowerCase() as keyof typeof DELIVERY_METHODS];
  if (method) return { kind: 'delivery', method };
  return { kind: 'code', code: text };
}

function ipAddressOrNull(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return isIP(text) === 0 ? null : text;
}

/**
 * The body of `POST /access/requests/ra` and `/md` (CONTRACT §8.3-8.5): keys in any case, unknown
 * fields (`name`, `email`, `phone`, `calledStationId`, `capabilities`, `groupPolicyPreset`, …) ignored,
 * null the same as absent. `ra` cannot register anyone, so the profile fields have no use here.
 */
export function parseRaRequest(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): RaRequestInput {
  const fields = InputFields.ofBody(body);
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    passCodeIntent: parsePassCode(fields.get('passcode'), 'PassCode'),
    language: accessLanguageOf(fields.get('language')),
    userIp: ipAddressOrNull(fields.get('ip')) ?? ipAddressOrNull(fields.get('callingstationid')),
  };
}

/** The body of `POST /access/requests/ra/challenge`: `{identity, challenge, requestId}`, keys in any case. */
export function parseRaChallenge(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): RaChallengeInput {
  const fields = InputFields.ofBody(body);
  const requestId = fields.get('requestid');
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    challenge: parsePassCode(fields.get('challenge'), 'Challenge'),
    requestId: typeof requestId === 'string' && REQUEST_ID.test(requestId.trim()) ? requestId.trim().toLowerCase() : null,
    language: accessLanguageOf(fields.get('language')),
  };
}

/** CONTRACT §8.2: `success` is true exactly when the status is Granted or AwaitingAuthentication. */
export function raSuccess(status: RaStatus): boolean {
  return status !== 'Denied';
}
