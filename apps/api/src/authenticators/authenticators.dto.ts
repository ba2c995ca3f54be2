import { AUTHENTICATOR_KINDS, AuthenticatorKindName } from '@twofold/domain';
import { AuthenticatorEntity, PhoneEntity } from '@twofold/persistence';

export interface AuthenticatorDto {
  id: string;
  name: string;
  /** present (true) only on an authenticator an administrator disabled: the SPEC's `{id, name}` otherwise */
  disabled?: true;
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
