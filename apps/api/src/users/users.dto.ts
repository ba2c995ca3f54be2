import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  addressOfScopeKey,
  AUTHENTICATOR_KINDS,
  AuthenticatorKindName,
  CODE_LOCKOUT_SCOPES,
  CodeLockoutScope,
  configuredKinds,
  SYSTEM_GROUP_NAME,
} from '@twofold/domain';
import { CodeLockoutRecord, UserDetails, UserEntity } from '@twofold/persistence';

/*
 * The answers of the user API, each declared once: the class is the TypeScript type the service
 * returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema as the
 * document always named it). A field added here is in the type and the document at once.
 */

@ApiSchema({ name: 'CustomField' })
export class CustomFieldDto {
  @ApiProperty() name!: string;
  @ApiProperty() value!: string;
}

/**
 * A lockout of the user's codes in force: from one address network (`address`: an IPv4 address or an
 * IPv6 /64; with `resource` when a resource named that address, which then locks that resource's
 * sign-ins alone) or through one resource. The user can still sign in from elsewhere;
 * `POST /v2/users/{id}/unlock` clears every lockout.
 */
@ApiSchema({ name: 'CodeLockout' })
export class CodeLockoutDto {
  @ApiProperty({ enum: CODE_LOCKOUT_SCOPES }) scope!: CodeLockoutScope;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'scope address: an IPv4 address or an IPv6 /64 network',
  })
  address!: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: 'string', nullable: true, description: 'null when the resource was deleted since' },
    },
    required: ['id', 'name'],
    description:
      'scope resource: the resource the codes came through; scope address: the resource that named the address (`ip`, `callingStationId`), null for the access page’s visitor',
  })
  resource!: { id: string; name: string | null } | null;
  @ApiProperty({ description: 'wrong codes in a row in this scope' }) wrongCodes!: number;
  @ApiProperty({ format: 'date-time', description: 'no code of the user is checked in this scope until then' }) lockedUntil!: string;
}

/**
 * A user as the API shows it. `phones` only when the list was asked withPhones=true. `codeLockouts`
 * is ours: what a helpdesk needs when a user says their codes are refused (`isLocked` is only an
 * administrator's lock).
 */
@ApiSchema({ name: 'User' })
export class UserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: "the user's login in the client's own system" }) identity!: string;
  @ApiProperty({ type: 'string', nullable: true }) name!: string | null;
  @ApiProperty({ type: 'string', format: 'email', nullable: true }) email!: string | null;
  @ApiProperty({ description: 'true when a second factor is configured' }) isEnrolled!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) lastLogin!: string | null;
  @ApiProperty() isLocked!: boolean;
  @ApiProperty({ type: [String], description: 'the system group AllUsers first' }) groups!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...AUTHENTICATOR_KINDS] } }) authenticators!: AuthenticatorKindName[];
  @ApiProperty({ type: [CustomFieldDto] }) customFields!: CustomFieldDto[];
  @ApiProperty({
    type: [CodeLockoutDto],
    description: 'ours: lockouts for wrong codes in force (isLocked is only an administrator lock); POST /v2/users/{id}/unlock clears them',
  })
  codeLockouts!: CodeLockoutDto[];
  @ApiPropertyOptional({ type: 'array', items: { type: 'string', pattern: '^\\+\\d{7,15}$' }, description: 'E.164; with withPhones=true' })
  phones?: string[];
}

@ApiSchema({ name: 'EnrollmentLink' })
export class EnrollmentLinkDto {
  @ApiPropertyOptional({ format: 'uri', description: 'absent when the link was mailed' }) url?: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

/** The created user; `enrollmentLink` when POST /users asked for one. */
@ApiSchema({ name: 'CreatedUser' })
export class CreatedUserDto extends UserDto {
  @ApiPropertyOptional({ type: EnrollmentLinkDto, description: 'when the request asked for a link' }) enrollmentLink?: EnrollmentLinkDto;
}

@ApiSchema({ name: 'UsersCount' })
export class UsersCountDto {
  @ApiProperty({ type: 'integer', description: 'users of the account' }) total!: number;
  @ApiProperty({ type: 'integer', description: 'licensed users' }) limit!: number;
}

@ApiSchema({ name: 'UserIdentity' })
export class UserIdentityDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() identity!: string;
  @ApiProperty({ type: 'string', nullable: true }) name!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) email!: string | null;
}

@ApiSchema({ name: 'UserGroups' })
export class UserGroupsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() identity!: string;
  @ApiProperty({ type: [String] }) groups!: string[];
}

@ApiSchema({ name: 'UserCustomFields' })
export class UserCustomFieldsDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() identity!: string;
  @ApiProperty({ type: [CustomFieldDto] }) customFields!: CustomFieldDto[];
}

@ApiSchema({ name: 'CustomFieldsMap' })
export class CustomFieldsMapDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: "all of the user's fields after the change" })
  customFields!: Record<string, string>;
}

/** The answer of PUT /v2/users/{id}/customfields, exactly as clients read it: `data`, not `model`. */
@ApiSchema({ name: 'CustomFieldsUpdated' })
export class CustomFieldsUpdatedDto {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: 'string', nullable: true }) message!: string | null;
  @ApiProperty({ type: CustomFieldsMapDto }) data!: CustomFieldsMapDto;
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
