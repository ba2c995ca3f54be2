import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { EnrollmentTokens1763800000000 } from './1763800000000-enrollment-tokens';
import { AdministratorActivation1763900000000 } from './1763900000000-administrator-activation';
import { AccessRequestPendingSecret1764000000000 } from './1764000000000-access-request-pending-secret';
import { ExistingClients1764100000000 } from './1764100000000-existing-clients';
import { TokenSigningKeys1764100000001 } from './1764100000001-token-signing-keys';
import { WrongCodesIndex1764200000000 } from './1764200000000-wrong-codes-index';
import { AccountUserCount1764300000000 } from './1764300000000-account-user-count';
import { SettledDayTotals1764400000000 } from './1764400000000-settled-day-totals';
import { AuthFailures1764500000000 } from './1764500000000-auth-failures';
import { WrongCodeStreaks1764600000000 } from './1764600000000-wrong-code-streaks';
import { AccessRequestRates1764600000001 } from './1764600000001-access-request-rates';
import { AuthenticatorDisabled1764700000000 } from './1764700000000-authenticator-disabled';
import { AccountDisplayName1764700000001 } from './1764700000001-account-display-name';
import { AdministratorMailLanguage1764750000000 } from './1764750000000-administrator-mail-language';
import { DropWrongCodeStreaksLocked1764750000001 } from './1764750000001-drop-wrong-code-streaks-locked';
import { IpLists1764800000000 } from './1764800000000-ip-lists';
import { AccessRequestBypassed1764800000001 } from './1764800000001-access-request-bypassed';
import { AccountIdentityFormat1764900000000 } from './1764900000000-account-identity-format';
import { AccessRequestsUser1764950000000 } from './1764950000000-access-requests-user';
import { RefreshedTokens1765000000000 } from './1765000000000-refreshed-tokens';
import { UsersIdentityKey1765000000001 } from './1765000000001-users-identity-key';
import { Approvals1765200000000 } from './1765200000000-approvals';
import { ApprovalsLdapChannel1765300000000 } from './1765300000000-approvals-ldap-channel';
import { SelfService1765500000000 } from './1765500000000-self-service';
import { MobileAppDevices1765600000000 } from './1765600000000-mobile-app-devices';
import { PhoneCodes1765700000000 } from './1765700000000-phone-codes';
import { StandbyCodes1765800000000 } from './1765800000000-standby-codes';
import { ForeignKeyIndexes1766200000000 } from './1766200000000-foreign-key-indexes';
import { Console1766300000000 } from './1766300000000-console';
import { MobileAppPushGone1766400000000 } from './1766400000000-mobile-app-push-gone';
import { WrongCodeStreaksAfterUserLock1766500000000 } from './1766500000000-wrong-code-streaks-after-user-lock';
import { UsersByIdentityFunction1766600000000 } from './1766600000000-users-by-identity-function';
import { DayPageFunctions1766700000000 } from './1766700000000-day-page-functions';
import { UsersPageFunction1766800000000 } from './1766800000000-users-page-function';
import { GrantSpendingFunction1766900000000 } from './1766900000000-grant-spending-function';
import { KeptPlansWithoutJit1767000000000 } from './1767000000000-kept-plans-without-jit';

/** Listed explicitly (not globbed) so the bundled API and CLI carry them. */
export const ALL_MIGRATIONS = [
  InitialSchema1763700000000,
  EnrollmentTokens1763800000000,
  AdministratorActivation1763900000000,
  AccessRequestPendingSecret1764000000000,
  ExistingClients1764100000000,
  TokenSigningKeys1764100000001,
  WrongCodesIndex1764200000000,
  AccountUserCount1764300000000,
  SettledDayTotals1764400000000,
  AuthFailures1764500000000,
  WrongCodeStreaks1764600000000,
  AccessRequestRates1764600000001,
  AuthenticatorDisabled1764700000000,
  AccountDisplayName1764700000001,
  AdministratorMailLanguage1764750000000,
  DropWrongCodeStreaksLocked1764750000001,
  IpLists1764800000000,
  AccessRequestBypassed1764800000001,
  AccountIdentityFormat1764900000000,
  AccessRequestsUser1764950000000,
  RefreshedTokens1765000000000,
  UsersIdentityKey1765000000001,
  Approvals1765200000000,
  ApprovalsLdapChannel1765300000000,
  SelfService1765500000000,
  MobileAppDevices1765600000000,
  PhoneCodes1765700000000,
  StandbyCodes1765800000000,
  ForeignKeyIndexes1766200000000,
  Console1766300000000,
  MobileAppPushGone1766400000000,
  WrongCodeStreaksAfterUserLock1766500000000,
  UsersByIdentityFunction1766600000000,
  DayPageFunctions1766700000000,
  UsersPageFunction1766800000000,
  GrantSpendingFunction1766900000000,
  KeptPlansWithoutJit1767000000000,
];
