import { DomainError, ErrorMessages, ValidationFailed } from './domain-error';
import { isPlainEmailAddress } from './email';

/** The allowed roles, exact strings. */
export const ADMIN_ROLES = ['Admin', 'Support 1', 'Support 2', 'Support 3', 'Support 4'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
/** The role whose last Active holder is the "last scope admin". */
export const SCOPE_ADMIN_ROLE: AdminRole = 'Admin';

/** An administrator's states. */
export const ADMIN_STATUSES = ['Pending', 'Active', 'Locked', 'TemporaryLocked'] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];
/** The states unlock starts from. */
export const UNLOCKABLE_STATUSES: readonly AdminStatus[] = ['Locked', 'TemporaryLocked'];
/** What `PUT /admins/{id}` accepts as `status`. */
export const SETTABLE_ADMIN_STATUSES = ['Locked', 'Active'] as const;
export type SettableAdminStatus = (typeof SETTABLE_ADMIN_STATUSES)[number];

export const ADMIN_EMAIL_MAX_LENGTH = 254;
export const ADMIN_NAME_MAX_LENGTH = 200;

export function isAdminRole(raw: unknown): raw is AdminRole {
  return typeof raw === 'string' && (ADMIN_ROLES as readonly string[]).includes(raw);
}

/** Any role that is not one of the five exact strings (missing included) is "Unknown role.". */
export function validateAdminRole(raw: unknown): AdminRole {
  if (!isAdminRole(raw)) throw new DomainError('UNKNOWN_ROLE', ErrorMessages.unknownRole);
  return raw;
}

/** The e-mail becomes the identity: trimmed, case kept (uniqueness is case-insensitive in the database). */
export function validateAdminEmail(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('email must be a non-empty string.');
  const email = raw.trim();
  if (email.length > ADMIN_EMAIL_MAX_LENGTH || !isPlainEmailAddress(email)) {
    throw new ValidationFailed('email must be an e-mail address.');
  }
  return email;
}

export function validateAdminName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('name must be a non-empty string.');
  const name = raw.trim();
  if (name.length > ADMIN_NAME_MAX_LENGTH) throw new ValidationFailed(`name must be at most ${ADMIN_NAME_MAX_LENGTH} characters.`);
  return name;
}

export function validateSettableAdminStatus(raw: unknown): SettableAdminStatus {
  if (typeof raw !== 'string' || !(SETTABLE_ADMIN_STATUSES as readonly string[]).includes(raw)) {
    throw new ValidationFailed(`status must be one of: ${SETTABLE_ADMIN_STATUSES.join(', ')}.`);
  }
  return raw as SettableAdminStatus;
}

/** The facts of an administrator the rules look at. */
export interface AdminState {
  role: string;
  status: string;
  /** whether the administrator ever became Active (completed the invitation, or was vouched for) */
  activated: boolean;
}

export function isScopeAdmin(admin: Pick<AdminState, 'role' | 'status'>): boolean {
  return admin.status === 'Active' && admin.role === SCOPE_ADMIN_ROLE;
}

/** Lock from any state; locking a locked administrator changes nothing. */
export function lockedStatus(): AdminStatus {
  return 'Locked';
}

/** Unlock: only from Locked or TemporaryLocked; back to Active, or Pending when never activated. */
export function unlockedStatus(admin: Pick<AdminState, 'status' | 'activated'>): AdminStatus {
  if (!(UNLOCKABLE_STATUSES as readonly string[]).includes(admin.status)) {
    throw new DomainError('ADMIN_UNLOCK_STATE', ErrorMessages.adminUnlockState);
  }
  return admin.activated ? 'Active' : 'Pending';
}

/**
 * The status a `PUT` with `status` leads to: `Locked` locks, `Active` unlocks. Sending the status the
 * administrator already has changes nothing (a form re-submitting its current state).
 */
export function statusAfterSet(admin: Pick<AdminState, 'status' | 'activated'>, requested: SettableAdminStatus): AdminStatus {
  if (requested === admin.status) return admin.status as AdminStatus;
  return requested === 'Locked' ? lockedStatus() : unlockedStatus(admin);
}

/**
 * The last-scope-admin rule. `activeScopeAdmins` counts the account's Active administrators with role
 * Admin, the target included; the change from `before` to `after` must not take the last one away.
 * A removal (`after` null) or a role change away from Admin: "Cannot change role of last scope admin.";
 * any other way out of Active (a lock): "Cannot lock last scope admin.".
 */
export function assertKeepsScopeAdmin(
  before: Pick<AdminState, 'role' | 'status'>,
  after: Pick<AdminState, 'role' | 'status'> | null,
  activeScopeAdmins: number,
): void {
  if (!isScopeAdmin(before) || (after && isScopeAdmin(after)) || activeScopeAdmins > 1) return;
  if (after === null || after.role !== SCOPE_ADMIN_ROLE) throw new DomainError('LAST_SCOPE_ADMIN', ErrorMessages.lastScopeAdmin);
  throw new DomainError('LAST_SCOPE_ADMIN_LOCK', ErrorMessages.lastScopeAdminLock);
}

/** An invitation (the link to set up one's second factor) goes only to an administrator still Pending. */
export function assertInvitable(admin: Pick<AdminState, 'status'>): void {
  if (admin.status !== 'Pending') {
    throw new ValidationFailed(`An invitation can only be re-sent to a Pending administrator; this one is ${admin.status}.`);
  }
}
