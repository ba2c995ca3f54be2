import { AuthenticatorEntity, PhoneEntity } from '@twofold/persistence';

/** One factor as the portals list it: a string id and the label the user sees. */
export interface PortalFactor {
  id: string;
  label: string;
}

/**
 * A user's factors as the portals read them: four lists, each always an array (a missing or null one
 * crashes older portals, which count them). Authenticator apps and hardware tokens are all `totp`;
 * stored phone numbers are `phone`.
 */
export interface PortalFactorLists {
  totpAuthenticators: PortalFactor[];
  telegramAuthenticators: PortalFactor[];
  mobileAppAuthenticators: PortalFactor[];
  phoneAuthenticators: PortalFactor[];
}

/** The kinds of a path of the older portals' DELETE, in the lower case they send. */
export const PORTAL_FACTOR_KINDS = ['totp', 'telegram', 'mobileapp', 'phone'] as const;
export type PortalFactorKind = (typeof PORTAL_FACTOR_KINDS)[number];

export function portalKindOf(kind: AuthenticatorEntity['kind']): PortalFactorKind {
  switch (kind) {
    case 'Telegram':
      return 'telegram';
    case 'MobileApp':
      return 'mobileapp';
    case 'Sms':
      return 'phone';
    default:
      return 'totp';
  }
}

export function portalFactorListsOf(authenticators: readonly AuthenticatorEntity[], phones: readonly PhoneEntity[]): PortalFactorLists {
  const of = (kind: PortalFactorKind) =>
    authenticators.filter((row) => portalKindOf(row.kind) === kind).map((row) => ({ id: row.id, label: row.name }));
  return {
    totpAuthenticators: of('totp'),
    telegramAuthenticators: of('telegram'),
    mobileAppAuthenticators: of('mobileapp'),
    phoneAuthenticators: [...of('phone'), ...phones.map((phone) => ({ id: phone.id, label: phone.number }))],
  };
}

/** How many factors the lists hold: the last one is never removed by the user. */
export function factorCount(lists: PortalFactorLists): number {
  return (
    lists.totpAuthenticators.length +
    lists.telegramAuthenticators.length +
    lists.mobileAppAuthenticators.length +
    lists.phoneAuthenticators.length
  );
}
