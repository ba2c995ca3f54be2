import { AUTHENTICATOR_KINDS, AuthenticatorKindName } from '@twofold/domain';
import { AuthenticatorEntity, PhoneEntity } from '@twofold/persistence';
import { Allow } from 'class-validator';

/**
 * Bodies of the authenticator API (SPEC.md "Authenticators", CONTRACT §6). Fields are taken as they
 * come (`@Allow`, keys matched case-insensitively by the pipe) and judged by the service with the
 * rules of libs/domain, so that no message ever echoes a key.
 */
export class RegisterTokenRequest {
  @Allow() name?: unknown;
  /** hex, 16 to 64 bytes; encrypted at rest, never returned, journaled or logged */
  @Allow() key?: unknown;
  /** optional hex uid of a hardware token; encrypted at rest */
  @Allow() privateId?: unknown;
  /** optional: SHA1 (default); SHA256 and SHA512 for HOTP tokens only */
  @Allow() algorithm?: unknown;
}

/** PUT: `{Name}` renames; `{user, name?}` moves an OTP token to another user of the account. */
export class UpdateAuthenticatorRequest {
  @Allow() name?: unknown;
  @Allow() user?: unknown;
}

/** PATCH: copies an OTP token to each listed user. */
export class CopyTokenRequest {
  @Allow() users?: unknown;
}

export interface AuthenticatorDto {
  id: string;
  name: string;
}

/** GET model: kind → authenticators, only the kinds the user has, in the fixed order of the kinds. */
export type AuthenticatorsByKindDto = Partial<Record<AuthenticatorKindName, AuthenticatorDto[]>>;

export interface RegisteredTokenDto {
  id: string;
}

export interface TokenCopyDto {
  userId: string;
  id: string;
}

/** PATCH model (SPEC.md: "not shown"): the new authenticator of each target user, in request order. */
export interface CopiedTokenDto {
  copies: TokenCopyDto[];
}

export function toAuthenticatorDto(authenticator: AuthenticatorEntity): AuthenticatorDto {
  return { id: authenticator.id, name: authenticator.name };
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
