import { addressOfScopeKey, CodeLockoutScope, configuredKinds, SYSTEM_GROUP_NAME } from '@twofold/domain';
import { CodeLockoutRecord, UserDetails, UserEntity } from '@twofold/persistence';

/**
 * A lockout of the user's codes in force (issue 13, finding 4): from one address network (`address`:
 * an IPv4 address, an IPv6 /64, or `unknown` when the client sent none) or through one resource. The
 * user can still sign in from elsewhere; `POST /v2/users/{id}/unlock` clears every lockout.
 */
export interface CodeLockoutDto {
  scope: CodeLockoutScope;
  address: string | null;
  resource: { id: string; name: string | null } | null;
  wrongCodes: number;
  lockedUntil: string;
}

/**
 * SPEC.md "User". `phones` only when the list was asked withPhones=true (CONTRACT §6). `codeLockouts`
 * is ours: what a helpdesk needs when a user says their codes are refused (`isLocked` is only an
 * administrator's lock, as SPEC.md has it).
 */
export interface UserDto {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
  isEnrolled: boolean;
  createdAt: string;
  lastLogin: string | null;
  isLocked: boolean;
  groups: string[];
  authenticators: string[];
  customFields: { name: string; value: string }[];
  codeLockouts: CodeLockoutDto[];
  phones?: string[];
}

export interface EnrollmentLinkDto {
  /** absent when the link was mailed */
  url?: string;
  expiresAt: string;
}

/** The created user; `enrollmentLink` when POST /users asked for one. */
export interface CreatedUserDto extends UserDto {
  enrollmentLink?: EnrollmentLinkDto;
}

export interface UserIdentityDto {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
}

export interface UserGroupsDto {
  id: string;
  identity: string;
  groups: string[];
}

export interface UserCustomFieldsDto {
  id: string;
  identity: string;
  customFields: { name: string; value: string }[];
}

export interface UsersCountDto {
  total: number;
  limit: number;
}

/** Every user is in the system group, which is listed first. */
export function groupNamesOf(details: UserDetails): string[] {
  return [SYSTEM_GROUP_NAME, ...details.groups];
}

/** The lockouts still in force at `now`. */
export function codeLockoutsAt(lockouts: readonly CodeLockoutRecord[], now: Date): CodeLockoutDto[] {
  return lockouts
    .filter((lockout) => lockout.lockedUntil.getTime() > now.getTime())
    .map((lockout) => {
      // an address scope is the network, and the resource when that resource named the address
      const address = lockout.scope === 'address' ? addressOfScopeKey(lockout.scopeKey) : null;
      const resourceId = address ? address.resourceId : lockout.scopeKey;
      return {
        scope: lockout.scope,
        address: address?.network ?? null,
        resource: resourceId !== null ? { id: resourceId, name: lockout.resourceName } : null,
        wrongCodes: lockout.failures,
        lockedUntil: lockout.lockedUntil.toISOString(),
      };
    });
}

export function toUserDto(user: UserEntity, details: UserDetails, options: { withPhones: boolean; now: Date }): UserDto {
  const authenticators = configuredKinds(details.authenticatorKinds, details.phones.length > 0);
  const dto: UserDto = {
    id: user.id,
    identity: user.identity,
    name: user.name,
    email: user.email,
    isEnrolled: authenticators.length > 0,
    createdAt: user.createdAt.toISOString(),
    lastLogin: user.lastLogin ? user.lastLogin.toISOString() : null,
    isLocked: user.isLocked,
    groups: groupNamesOf(details),
    authenticators,
    customFields: details.customFields,
    codeLockouts: codeLockoutsAt(details.codeLockouts, options.now),
  };
  if (options.withPhones) dto.phones = details.phones;
  return dto;
}

export function toUserIdentityDto(user: UserEntity): UserIdentityDto {
  return { id: user.id, identity: user.identity, name: user.name, email: user.email };
}
