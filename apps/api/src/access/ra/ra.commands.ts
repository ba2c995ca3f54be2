import { isIP } from 'node:net';
import {
  AccessLanguage,
  accessLanguageOf,
  cutText,
  DEFAULT_IDENTITY_FORMAT,
  IdentityFormat,
  InputFields,
  parsePassCode,
  parseUserIdentity,
  PassCodeIntent,
} from '@twofold/domain';

/**
 * What the `ra` family's calls ask for, parsed from their bodies at the edge:
 * keys in any case, unknown fields (`name`, `email`, `phone`, `calledStationId`, `capabilities`,
 * `groupPolicyPreset`, …) ignored, null the same as absent. What a `passCode` means is the domain's
 * rule (`parsePassCode`).
 */

/** `POST /access/requests/ra` and `/md`. */
export interface RaRequestCommand {
  identity: string;
  passCodeIntent: PassCodeIntent;
  language: AccessLanguage;
  /** the user's address as the client reports it (`ip`, else `callingStationId` when it is an IP address) */
  userIp: string | null;
}

/** `POST /access/requests/ra/challenge`. */
export interface RaChallengeCommand {
  identity: string;
  challenge: PassCodeIntent;
  /** the `id` of the `ra` answer that started the flow; null when it is not a request id at all */
  requestId: string | null;
  language: AccessLanguage;
}

const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request's language (`en…` English, anything else Russian) read from a body that may not even be an object: for refusals too. */
export function raLanguageOf(body: unknown): AccessLanguage {
  return accessLanguageOf(InputFields.lenient(body).get('language'));
}

/** The identity a refused body named, when it named one: echoed in the refusal's model. */
export function raIdentityOf(body: unknown): string | null {
  const identity = InputFields.lenient(body).get('identity');
  return typeof identity === 'string' && identity.trim() !== '' ? cutText(identity.trim(), 256) : null;
}

function ipAddressOrNull(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return isIP(text) === 0 ? null : text;
}

/** The body of `POST /access/requests/ra` and `/md`. `ra` cannot register anyone, so the profile fields have no use here. */
export function parseRaRequest(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): RaRequestCommand {
  const fields = InputFields.ofBody(body);
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    passCodeIntent: parsePassCode(fields.get('passcode'), 'PassCode'),
    language: accessLanguageOf(fields.get('language')),
    userIp: ipAddressOrNull(fields.get('ip')) ?? ipAddressOrNull(fields.get('callingstationid')),
  };
}

/**
 * The body of `POST /access/requests/la` (the LDAP adapter): `{identity, email}`, never a code: the
 * service chooses the approval factor.
 */
export function parseLaRequest(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): RaRequestCommand {
  const fields = InputFields.ofBody(body);
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    passCodeIntent: { kind: 'none' },
    language: accessLanguageOf(fields.get('language')),
    userIp: ipAddressOrNull(fields.get('ip')),
  };
}

/** The body of `POST /access/requests/ra/challenge`: `{identity, challenge, requestId}`. */
export function parseRaChallenge(body: unknown, format: IdentityFormat = DEFAULT_IDENTITY_FORMAT): RaChallengeCommand {
  const fields = InputFields.ofBody(body);
  const requestId = fields.get('requestid');
  return {
    identity: parseUserIdentity(fields.get('identity'), format),
    challenge: parsePassCode(fields.get('challenge'), 'Challenge'),
    requestId: typeof requestId === 'string' && REQUEST_ID.test(requestId.trim()) ? requestId.trim().toLowerCase() : null,
    language: accessLanguageOf(fields.get('language')),
  };
}
