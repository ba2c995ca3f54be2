import { SYSTEM_GROUP_NAME } from '@twofold/domain';
import { UserDetails, UserEntity } from '@twofold/persistence';
import { configuredKinds } from '@twofold/domain';
import { NestedDto } from '../http/nested-dto';
import { Allow } from 'class-validator';

/**
 * Bodies of the user API. Fields are taken as they come (`@Allow`) and judged by the rules of
 * libs/domain, which give SPEC.md's messages; nested objects are classes so that their keys are
 * matched case-insensitively too (`Fields[].Name`, `fields[].name`).
 */
export class EnrollmentLinkRequest {
  /** `email`: mail the link to the user's e-mail; absent: return it */
  @Allow() to?: unknown;
  @Allow() ttl?: unknown;
}

export class GroupChangesRequest {
  @Allow() add?: unknown;
  @Allow() remove?: unknown;
}

export class CreateUserRequest {
  @Allow() identity?: unknown;
  @Allow() email?: unknown;
  @Allow() phone?: unknown;
  @Allow() name?: unknown;
  /** CONTRACT §6: Api (default) or Directory, for a directory synchronization agent */
  @Allow() source?: unknown;
  @Allow() @NestedDto(() => EnrollmentLinkRequest) enrollmentLink?: unknown;
  @Allow() @NestedDto(() => GroupChangesRequest) groups?: unknown;
}

export class UpdateUserRequest {
  @Allow() identity?: unknown;
  @Allow() name?: unknown;
  @Allow() email?: unknown;
  @Allow() isLocked?: unknown;
  @Allow() @NestedDto(() => GroupChangesRequest) groups?: unknown;
}

export class NameValueRequest {
  @Allow() name?: unknown;
  @Allow() value?: unknown;
}

export class UpdateUserFieldsRequest {
  @Allow() @NestedDto(() => NameValueRequest) fields?: unknown;
}

export class PhoneNumberRequest {
  @Allow() phoneNumber?: unknown;
}

export class PhoneNumbersRequest {
  @Allow() phoneNumbers?: unknown;
}

export class CustomFieldsUpdateRequest {
  @Allow() @NestedDto(() => NameValueRequest) fields?: unknown;
}

export class CustomFieldsDeleteRequest {
  @Allow() fieldNames?: unknown;
}

export class GroupNamesRequest {
  @Allow() groupNames?: unknown;
}

export class EnrollRequest {
  @Allow() email?: unknown;
  @Allow() ttl?: unknown;
}

export class DirectorySyncRequest {
  @Allow() enabled?: unknown;
}

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
