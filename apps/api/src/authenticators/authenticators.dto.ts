import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { AUTHENTICATOR_KINDS, AuthenticatorKindName } from '@twofold/domain';
import { AuthenticatorEntity, PhoneEntity } from '@twofold/persistence';

/*
 * The answers of the authenticator API, each declared once: the class is the TypeScript type the
 * service returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema).
 */

@ApiSchema({ name: 'Authenticator' })
export class AuthenticatorDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'display name; for Sms the phone number' }) name!: string;
  /** present (true) only on an authenticator an administrator disabled: the plain `{id, name}` otherwise */
  @ApiPropertyOptional({
    enum: [true],
    description: 'ours: present only when an administrator disabled it; no code of it is accepted',
  })
  disabled?: true;
}

/** GET model: kind → authenticators, only the kinds the user has, in the fixed order of the kinds. */
export type AuthenticatorsByKindDto = Partial<Record<AuthenticatorKindName, AuthenticatorDto[]>>;

@ApiSchema({ name: 'RegisteredToken' })
export class RegisteredTokenDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
}

@ApiSchema({ name: 'TokenCopy' })
export class TokenCopyDto {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ format: 'uuid' }) id!: string;
}

/** PATCH model (ours; the API never showed one): the new authenticator of each target user, in request order. */
@ApiSchema({ name: 'CopiedToken' })
export class CopiedTokenDto {
  @ApiProperty({ type: [TokenCopyDto], description: 'the new authenticator of each target user, in request order' })
  copies!: TokenCopyDto[];
}

export function toAuthenticatorDto(authenticator: AuthenticatorEntity): AuthenticatorDto {
  return authenticator.disabled
    ? { id: authenticator.id, name: authenticator.name, disabled: true }
    : { id: authenticator.id, name: authenticator.name };
}

/** Stored phone numbers are the user's `Sms` authenticators: id of the phone, the number as name. */
export function toAuthenticatorsByKindDto(
  authenticators: readonly AuthenticatorEntity[],
  smsPhones: readonly PhoneEntity[] = [],
): AuthenticatorsByKindDto {
  const model: AuthenticatorsByKindDto = {};
  for (const kind of AUTHENTICATOR_KINDS) {
    const ofKind = authenticators.filter((authenticator) => authenticator.kind === kind).map(toAuthenticatorDto);
    if (kind === 'Sms') ofKind.push(...smsPhones.map((phone) => ({ id: phone.id, name: phone.number })));
    if (ofKind.length > 0) model[kind] = ofKind;
  }
  return model;
}
