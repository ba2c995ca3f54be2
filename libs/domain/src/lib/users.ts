import { DomainError, ErrorMessages, ValidationFailed } from './domain-error';
import { isPlainEmailAddress } from './email';
import { InputFields } from './input';
import { hasInvisibleOrBidiCharacter } from './identity-key';

export const USER_IDENTITY_MAX_LENGTH = 256;
export const USER_NAME_MAX_LENGTH = 200;
export const USER_EMAIL_MAX_LENGTH = 254;

/** Where a user came from: the API, or a directory synchronization agent. */
export const USER_SOURCES = ['Api', 'Directory'] as const;
export type UserSourceName = (typeof USER_SOURCES)[number];

/**
 * A user's identity must not be empty. Trimmed and in canonical composition (NFC: a decomposed `é` is
 * stored as the one letter); case is kept, and uniqueness compares keys (identity-key.ts). Characters
 * that cannot be seen or that reorder text are refused: they make look-alike users.
 */
export function validateUserIdentity(raw: unknown, field = 'Identity'): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed(`${field} must not be empty.`);
  if (hasInvisibleOrBidiCharacter(raw.trim())) {
    throw new ValidationFailed(`${field} must not contain invisible, control or text-direction characters.`);
  }
  const identity = raw.trim().normalize('NFC');
  if (identity.length > USER_IDENTITY_MAX_LENGTH) {
    throw new ValidationFailed(`${field} must be at most ${USER_IDENTITY_MAX_LENGTH} characters.`);
  }
  return identity;
}

/** Optional e-mail: absent or null means none; anything given must be an e-mail address. */
export function validateUserEmail(raw: unknown, field = 'Email'): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  const email = raw.trim();
  if (email.length > USER_EMAIL_MAX_LENGTH || !isPlainEmailAddress(email)) {
    throw new ValidationFailed(`${field} must be in e-mail format.`);
  }
  return email;
}

/** Optional display name: absent, null or blank means none. */
export function validateUserName(raw: unknown, field = 'Name'): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw new ValidationFailed(`${field} must be a string.`);
  const name = raw.trim();
  if (name.length > USER_NAME_MAX_LENGTH) throw new ValidationFailed(`${field} must be at most ${USER_NAME_MAX_LENGTH} characters.`);
  return name === '' ? null : name;
}

export function validateUserSource(raw: unknown): UserSourceName {
  if (raw === undefined || raw === null) return 'Api';
  const match = USER_SOURCES.find((source) => typeof raw === 'string' && source.toLowerCase() === raw.trim().toLowerCase());
  if (!match) throw new ValidationFailed(`Source must be one of: ${USER_SOURCES.join(', ')}.`);
  return match;
}

/** A new user beyond the account's licensed count is refused. */
export function assertWithinLicenses(currentUsers: number, licenses: number): void {
  if (currentUsers >= licenses) throw new DomainError('USERS_QUOTA_EXCEEDED', ErrorMessages.usersQuotaExceeded);
}

/** The fields PUT /v2/users/{id} may set. */
export const V2_USER_FIELD_NAMES = ['Identity', 'Name', 'Email'] as const;

export interface UserFieldChanges {
  identity?: string;
  name?: string | null;
  email?: string | null;
}

/**
 * Fields must not be empty, each Name is Identity, Name or Email (matched
 * case-insensitively like every input name) and given once, Email must be an e-mail
 * address (null clears it), Identity must not be empty.
 */
export function parseV2UserFields(raw: unknown): UserFieldChanges {
  if (!Array.isArray(raw) || raw.length === 0) throw new ValidationFailed('Fields must not be empty.');
  const changes: UserFieldChanges = {};
  const seen = new Set<string>();
  for (const item of raw) {
    const entry = InputFields.of(item, 'Each of Fields must be an object with Name and Value.');
    const [rawName, value] = [entry.get('name'), entry.get('value')];
    const fieldName = V2_USER_FIELD_NAMES.find(
      (known) => typeof rawName === 'string' && known.toLowerCase() === rawName.trim().toLowerCase(),
    );
    if (!fieldName) {
      throw new ValidationFailed(`Field name ${JSON.stringify(rawName ?? null)} is not one of: ${V2_USER_FIELD_NAMES.join(', ')}.`);
    }
    if (seen.has(fieldName)) throw new ValidationFailed(`Field ${fieldName} is given more than once.`);
    seen.add(fieldName);
    if (fieldName === 'Identity') changes.identity = validateUserIdentity(value, 'Identity');
    if (fieldName === 'Name') changes.name = validateUserName(value, 'Name');
    if (fieldName === 'Email') changes.email = validateUserEmail(value, 'Email');
  }
  return changes;
}

/** Custom fields of a Directory user change only while synchronization is off. */
export function assertCustomFieldsEditable(user: { source: string }, directorySyncEnabled: boolean): void {
  if (user.source === 'Directory' && directorySyncEnabled) {
    throw new DomainError('DIRECTORY_SYNC_ENABLED', ErrorMessages.directorySyncEnabled);
  }
}
