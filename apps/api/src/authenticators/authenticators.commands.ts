import {
  AuthenticatorKindName,
  InputFields,
  isGiven,
  OTP_TOKEN_KEY_MAX_BYTES,
  OTP_TOKEN_KEY_MIN_BYTES,
  OtpTokenAlgorithm,
  OtpTokenKind,
  parseAuthenticatorKind,
  parseOtpTokenAlgorithm,
  parseOtpTokenKind,
  parseOtpTokenPrivateId,
  parseRecordId,
  RecordId,
  validateAuthenticatorName,
  ValidationFailed,
} from '@twofold/domain';
import { OtpKeyError, parseHexKey } from '@twofold/otp';
import { PathParameters } from '../http/parsed-input';
import { parseUserPath } from '../users/users.commands';

/**
 * What each changing call of the authenticator API asks for,
 * parsed from its body at the edge: keys in any case, values judged by libs/domain. No message ever
 * repeats a key or a PrivateId.
 */

/**
 * The paths `/users/{id}/authenticators/{type}[/{authenticatorId}]`, read in the order the checks
 * always ran: the kind (`{type}` in any case; 404 for no kind, 400 for a kind the call does not take),
 * then the user, then the authenticator (404 for an id that is no UUID).
 */
export interface AuthenticatorKindPath<K extends AuthenticatorKindName = AuthenticatorKindName> {
  userId: RecordId;
  kind: K;
}

export interface AuthenticatorPath<K extends AuthenticatorKindName = AuthenticatorKindName> extends AuthenticatorKindPath<K> {
  authenticatorId: RecordId;
}

export function parseAuthenticatorKindPath(path: PathParameters): AuthenticatorKindPath {
  const kind = parseAuthenticatorKind(path['type'] ?? '');
  return { kind, userId: parseUserPath(path) };
}

/** Registration and copies are of OTP tokens only. */
export function parseOtpTokenKindPath(path: PathParameters): AuthenticatorKindPath<OtpTokenKind> {
  const kind = parseOtpTokenKind(path['type'] ?? '');
  return { kind, userId: parseUserPath(path) };
}

export function parseAuthenticatorPath(path: PathParameters): AuthenticatorPath {
  const { kind, userId } = parseAuthenticatorKindPath(path);
  return { kind, userId, authenticatorId: parseRecordId(path['authenticatorId'], 'Authenticator') };
}

export function parseOtpTokenPath(path: PathParameters): AuthenticatorPath<OtpTokenKind> {
  const { kind, userId } = parseOtpTokenKindPath(path);
  return { kind, userId, authenticatorId: parseRecordId(path['authenticatorId'], 'Authenticator') };
}

/** PATCH copy: at most this many target users in one call. */
export const TOKEN_COPY_MAX_USERS = 100;

/** POST /users/{id}/authenticators/{type}: an OTP token. */
export interface RegisterTokenCommand {
  name: string;
  /** the token secret: the service encrypts it and zero-fills this buffer, whatever the outcome */
  key: Buffer;
  /** a hardware token's uid, kept secret like the key */
  privateId: Buffer | null;
  /** checked against the path's kind by the service (a TOTP token is SHA1 only) */
  algorithm: OtpTokenAlgorithm;
}

/** The token's key (hex of 16 to 64 bytes), refused with messages that never repeat it. */
function parseTokenKey(raw: unknown): Buffer {
  if (!isGiven(raw) || raw === '') throw new ValidationFailed('Key is required: the token secret, hex-encoded.');
  if (typeof raw !== 'string') throw new ValidationFailed('Key must be a hex string.');
  try {
    return parseHexKey(raw.trim());
  } catch (error) {
    if (!(error instanceof OtpKeyError)) throw error;
    switch (error.code) {
      case 'KEY_TOO_SHORT':
      case 'KEY_TOO_LONG':
        throw new ValidationFailed(
          `Key must be ${OTP_TOKEN_KEY_MIN_BYTES} to ${OTP_TOKEN_KEY_MAX_BYTES} bytes (${OTP_TOKEN_KEY_MIN_BYTES * 2} to ${OTP_TOKEN_KEY_MAX_BYTES * 2} hex digits).`,
        );
      default:
        throw new ValidationFailed('Key must be hex-encoded (an even number of the digits 0-9, a-f).');
    }
  }
}

export function parseRegisterToken(body: unknown): RegisterTokenCommand {
  const fields = InputFields.ofBody(body);
  const name = validateAuthenticatorName(fields.get('name'));
  const key = parseTokenKey(fields.get('key'));
  try {
    return {
      name,
      key,
      privateId: parseOtpTokenPrivateId(fields.get('privateId')),
      algorithm: parseOtpTokenAlgorithm(fields.get('algorithm')),
    };
  } catch (error) {
    key.fill(0);
    throw error;
  }
}

/** PUT: `{Name}` renames; `{user, name?}` moves an OTP token to another user of the account. */
export type UpdateAuthenticatorCommand = { kind: 'rename'; name: string } | { kind: 'move'; targetUserId: string; name: string | null };

export function parseUpdateAuthenticator(body: unknown): UpdateAuthenticatorCommand {
  const fields = InputFields.ofBody(body);
  const user = fields.get('user');
  if (!isGiven(user)) return { kind: 'rename', name: validateAuthenticatorName(fields.get('name')) };
  if (typeof user !== 'string' || user.trim() === '') throw new ValidationFailed('user must be a user id.');
  const name = isGiven(fields.get('name')) ? validateAuthenticatorName(fields.get('name')) : null;
  return { kind: 'move', targetUserId: user.trim(), name };
}

/** PATCH: `users`, a non-empty array of ids, duplicates dropped (first occurrence kept). */
export function parseCopyToken(body: unknown): RecordId[] {
  const raw = InputFields.ofBody(body).get('users');
  if (!Array.isArray(raw)) throw new ValidationFailed('users must be an array of user ids.');
  if (raw.length === 0) throw new ValidationFailed('users must name at least one user.');
  if (raw.some((id) => typeof id !== 'string')) throw new ValidationFailed('users must be an array of user ids.');
  const ids = [...new Set((raw as string[]).map((id) => parseRecordId(id.trim(), 'User')))];
  if (ids.length > TOKEN_COPY_MAX_USERS) throw new ValidationFailed(`users may name at most ${TOKEN_COPY_MAX_USERS} users.`);
  return ids;
}
