import { NotFound, ValidationFailed } from './domain-error';

/**
 * The kinds, as map keys; in paths they are written in lower case. `Telegram` (a chat bound to the
 * user through the service's bot) and `MobileApp` (the service's authenticator app) confirm a
 * sign-in without a code (approvals.ts).
 */
export const AUTHENTICATOR_KINDS = ['Totp', 'TotpToken', 'HotpToken', 'Telegram', 'MobileApp', 'Sms'] as const;
export type AuthenticatorKindName = (typeof AUTHENTICATOR_KINDS)[number];
/** The kinds a client can register through the API: hardware OTP tokens. */
export const OTP_TOKEN_KINDS = ['TotpToken', 'HotpToken'] as const;
export type OtpTokenKind = (typeof OTP_TOKEN_KINDS)[number];

export const OTP_TOKEN_ALGORITHMS = ['SHA1', 'SHA256', 'SHA512'] as const;
export type OtpTokenAlgorithm = (typeof OTP_TOKEN_ALGORITHMS)[number];

/** OTP token parameters: 6 digits, a key of 16 to 64 bytes, 30-second TOTP steps. */
export const OTP_TOKEN_DIGITS = 6;
export const OTP_TOKEN_KEY_MIN_BYTES = 16;
export const OTP_TOKEN_KEY_MAX_BYTES = 64;
export const TOTP_STEP_SECONDS = 30;
/** TOTP codes are accepted one step either side of now. */
export const TOTP_WINDOW_STEPS = 1;
/** HOTP: the next 10 counters are looked ahead. */
export const HOTP_LOOK_AHEAD = 10;
export const AUTHENTICATOR_NAME_MAX_LENGTH = 100;

/** `{type}` of a path: the kind in any case; an unknown kind names nothing, so 404. */
export function parseAuthenticatorKind(raw: string): AuthenticatorKindName {
  const kind = AUTHENTICATOR_KINDS.find((known) => known.toLowerCase() === raw.toLowerCase());
  if (!kind) throw new NotFound('Authenticator kind');
  return kind;
}

/** Registration, move and copy are for OTP tokens only. */
export function parseOtpTokenKind(raw: string): OtpTokenKind {
  const kind = parseAuthenticatorKind(raw);
  if (kind !== 'TotpToken' && kind !== 'HotpToken')
    throw new ValidationFailed('Only totptoken and hotptoken authenticators can be registered, moved or copied.');
  return kind;
}

/** SHA1 by default; SHA1, SHA256 or SHA512 (`sha-256` reads as SHA256). */
export function parseOtpTokenAlgorithm(raw: unknown): OtpTokenAlgorithm {
  if (raw === undefined || raw === null || raw === '') return 'SHA1';
  const algorithm = OTP_TOKEN_ALGORITHMS.find((known) => typeof raw === 'string' && known === raw.trim().toUpperCase().replace('-', ''));
  if (!algorithm) throw new ValidationFailed(`Algorithm must be one of: ${OTP_TOKEN_ALGORITHMS.join(', ')}.`);
  return algorithm;
}

/** TOTP tokens are SHA-1 only, HOTP tokens SHA-1, SHA-256 or SHA-512. */
export function assertOtpTokenAlgorithm(kind: OtpTokenKind, algorithm: OtpTokenAlgorithm): OtpTokenAlgorithm {
  if (kind === 'TotpToken' && algorithm !== 'SHA1') throw new ValidationFailed('A TOTP token uses SHA1.');
  return algorithm;
}

export function validateAuthenticatorName(raw: unknown, field = 'Name'): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed(`${field} must be a non-empty string.`);
  const name = raw.trim();
  if (name.length > AUTHENTICATOR_NAME_MAX_LENGTH)
    throw new ValidationFailed(`${field} must be at most ${AUTHENTICATOR_NAME_MAX_LENGTH} characters.`);
  return name;
}

/**
 * The `authenticators` of a user object: the kinds configured, in the fixed order above; stored
 * phones count as `Sms`. `isEnrolled` is exactly "this list is not empty".
 */
export function configuredKinds(authenticatorKinds: readonly string[], hasPhones: boolean): AuthenticatorKindName[] {
  return AUTHENTICATOR_KINDS.filter((kind) => authenticatorKinds.includes(kind) || (kind === 'Sms' && hasPhones));
}

/**
 * The user has authenticators, an administrator disabled every one, and no phone. Such a
 * user is treated as having no usable second factor, but is never offered to enroll a new one: only
 * the administrator can enable a factor again (or delete it, after which the user may enroll).
 */
export function everyFactorDisabled(authenticators: readonly { disabled: boolean }[], hasPhones: boolean): boolean {
  return !hasPhones && authenticators.length > 0 && authenticators.every((authenticator) => authenticator.disabled);
}

/** An OTP token's PrivateId (hex uid of a hardware token): at most this many bytes. */
export const OTP_TOKEN_PRIVATE_ID_MAX_BYTES = 64;

/**
 * PrivateId of a token registration (optional, hex). Absent, null or empty: none. The value
 * is kept secret like the key, so no message repeats it.
 */
export function parseOtpTokenPrivateId(raw: unknown): Buffer | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new ValidationFailed('PrivateId must be a hex string.');
  const hex = raw.trim();
  if (hex === '') return null;
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0)
    throw new ValidationFailed('PrivateId must be hex-encoded (an even number of the digits 0-9, a-f).');
  if (hex.length / 2 > OTP_TOKEN_PRIVATE_ID_MAX_BYTES)
    throw new ValidationFailed(`PrivateId must be at most ${OTP_TOKEN_PRIVATE_ID_MAX_BYTES} bytes.`);
  return Buffer.from(hex, 'hex');
}
