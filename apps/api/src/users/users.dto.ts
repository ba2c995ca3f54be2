import { SYSTEM_GROUP_NAME } from '@twofold/domain';
import { UserDetails, UserEntity } from '@twofold/persistence';
import { configuredKinds } from '@twofold/domain';

/** SPEC.md "User". `phones` only when the list was asked withPhones=true (CONTRACT §6). */
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

export function toUserDto(user: UserEntity, details: UserDetails, options: { withPhones: boolean }): UserDto {
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
  };
  if (options.withPhones) dto.phones = details.phones;
  return dto;
}

export function toUserIdentityDto(user: UserEntity): UserIdentityDto {
  return { id: user.id, identity: user.identity, name: user.name, email: user.email };
}
