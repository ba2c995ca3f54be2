/**
 * Every business refusal carries a stable code; the API's exception filter maps each code to a
 * status and an envelope with an exhaustive switch, so adding a code without a mapping does not compile.
 */
export type DomainErrorCode =
  | 'VALIDATION'
  | 'NOT_FOUND'
  | 'USER_IDENTITY_TAKEN'
  | 'ADMIN_EMAIL_TAKEN'
  | 'UNKNOWN_ROLE'
  | 'LAST_SCOPE_ADMIN'
  | 'LAST_SCOPE_ADMIN_LOCK'
  | 'ADMIN_UNLOCK_STATE'
  | 'USERS_QUOTA_EXCEEDED'
  | 'DIRECTORY_SYNC_ENABLED'
  | 'SYSTEM_GROUP'
  | 'GROUP_NAME_TAKEN'
  | 'IP_LIST_NAME_TAKEN'
  | 'MAIL_NOT_SENT';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class ValidationFailed extends DomainError {
  constructor(message: string) {
    super('VALIDATION', message);
  }
}

export class NotFound extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found.`);
  }
}

/** The exact error texts of the API; clients match on them, keep them to the letter. */
export const ErrorMessages = {
  unknownRole: 'Unknown role.',
  lastScopeAdmin: 'Cannot change role of last scope admin.',
  lastScopeAdminLock: 'Cannot lock last scope admin.',
  adminUnlockState: 'Cannot unlock. Admin should be in one of the following states: Locked, TemporaryLocked',
  usersQuotaExceeded: 'Users quota exceeded',
  directorySyncEnabled: 'Directory synchronization must be disabled before custom fields are changed.',
} as const;
