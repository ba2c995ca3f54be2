/**
 * The one source of journal objects and their actions: the API's journal constants, plus what its
 * event records show (EnrollmentLink Send), the registration of an administrator (Employee Create) and
 * the directory synchronization switch.
 */
export const JOURNAL_EVENTS = {
  /**
   * Reject is ours: the user answered "it wasn't me" to an approval request on their phone;
   * PhoneCodeLimit too: a code was not sent to a phone because an abuse limit was hit
   */
  AccessRequest: ['Bypass', 'Reject', 'PhoneCodeLimit'],
  /**
   * ChangeDisplayName is ours: the customer's name on pages, mails and authenticator apps;
   * ChangeLicenses too: the operator's CLI changed how many users the account may have
   */
  Accounts: ['RenameAndRemoveDuplicates', 'ChangeNameFormat', 'ChangeDisplayName', 'ChangeLicenses'],
  AdminPanel: ['SignIn'],
  /** ours: helpdesk bypass codes handed out for a user (Create) and signed in with (Use) */
  BypassCode: ['Create', 'Use'],
  /**
   * ours: Enable, the way back from Disable; Bind, a Telegram chat bound to a user by the bot's `/start`;
   * Resync, a token's counter or clock drift found anew from two consecutive codes
   */
  Authenticator: ['Disable', 'Enable', 'Bind', 'Resync'],
  /** ours: the account's directory synchronization switch */
  DirectorySync: ['Update'],
  Employee: ['Create', 'Update', 'Delete', 'Lock', 'Unlock', 'SelfLock', 'SelfUnlock'],
  EnrollmentLink: ['Send'],
  ExternalSIP: ['Enable', 'Disable'],
  /** ours: ChangeDestinations, the account's allow-list of countries (E.164 prefixes) codes may be sent to */
  ExternalSMS: ['Enable', 'Disable', 'ChangeDestinations'],
  Group: ['Create', 'Update', 'Delete'],
  IpList: ['Create', 'Update', 'Delete'],
  Project: ['Create'],
  Api: ['Enable', 'Disable'],
  PublicApiSecret: ['Update', 'Display'],
  Resource: ['Create', 'Update', 'Delete', 'DisplayResourceSecret'],
  /** ours: a user's recovery codes made anew, the old ones voided (Create), and signed in with (Use) */
  RecoveryCode: ['Create', 'Use'],
  /** ours: what the account shows on the self-service portals (support contact, showcase tiles and their logos) */
  SelfService: ['ChangeSupportInfo', 'ChangeShowcase', 'UploadLogo', 'DeleteLogo'],
  User: ['Create', 'Update', 'Delete'],
} as const;

export type JournalObject = keyof typeof JOURNAL_EVENTS;
export type JournalAction<O extends JournalObject = JournalObject> = (typeof JOURNAL_EVENTS)[O][number];

/** Keys of additionalFields that the API's journal events carry, named once. */
export const JournalField = {
  twoFactorMethod: '2FAMethod',
  userIp: 'UserIp',
  userIdentity: 'UserIdentity',
  enrollmentLink: 'EnrollmentLink',
  enrollmentLinkEmail: 'EnrollmentLinkEmail',
  enrollmentLinkTtl: 'EnrollmentLinkTTL',
} as const;

export function isJournalEvent(object: string, action: string): boolean {
  const actions = (JOURNAL_EVENTS as Record<string, readonly string[]>)[object];
  return actions !== undefined && actions.includes(action);
}

/** Keys of additionalFields that Twofold adds beyond the API's own (ids and names of what an event touched, counts). */
export const OUR_JOURNAL_FIELDS = [
  'AccessRequestId',
  'AuthenticatorAlgorithm',
  'AuthenticatorCount',
  'AuthenticatorId',
  'AuthenticatorIds',
  'AuthenticatorKind',
  'AuthenticatorName',
  'AuthenticatorPreviousName',
  'Channel',
  'CodeCount',
  'CodeLockoutsCleared',
  'CodesLeft',
  'CodeTtlMinutes',
  'CodeUses',
  'CopyIds',
  'CountersSkipped',
  'CustomFields',
  'Destination',
  'Destinations',
  'Gateway',
  'DisplayName',
  'DriftSeconds',
  'EmployeeId',
  'EmployeeIdentity',
  'Enabled',
  'GroupId',
  'GroupName',
  'GroupNames',
  'IdentityFormat',
  'IpList',
  'IpListAction',
  'IpListId',
  'IpListRanges',
  'IpListResources',
  'Licenses',
  'LockedUntil',
  'LockoutScope',
  'LogoName',
  'Method',
  'Merged',
  'PhonesAdded',
  'PhoneCodeLimit',
  'PhonesRemoved',
  'PreviousDisplayName',
  'PreviousIdentityFormat',
  'PreviousLicenses',
  'Reason',
  'Renamed',
  'Resource',
  'ResourceId',
  'ResourceName',
  'Source',
  'TargetUserId',
  'TargetUserIdentities',
  'TargetUserIdentity',
  'TargetUserIds',
  'UserId',
  'UserLocked',
  'UsesLeft',
  'WrongCodes',
] as const;

/** Every key an event's additionalFields may carry. */
export const JOURNAL_FIELD_NAMES = [...Object.values(JournalField), ...OUR_JOURNAL_FIELDS] as const;
export type JournalFieldName = (typeof JOURNAL_FIELD_NAMES)[number];
/** additionalFields by registered key: a key not in JOURNAL_FIELD_NAMES does not compile. */
export type JournalFields<V = string> = Partial<Record<JournalFieldName, V>>;
