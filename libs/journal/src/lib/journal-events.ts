/**
 * The one source of journal objects and their actions: SPEC.md "Events", plus what SPEC.md saw in
 * event records (EnrollmentLink Send) and CONTRACT.md §5 adds (Employee Create), and the directory sync switch of CONTRACT §6.
 */
export const JOURNAL_EVENTS = {
  AccessRequest: ['Bypass'],
  Accounts: ['RenameAndRemoveDuplicates', 'ChangeNameFormat'],
  AdminPanel: ['SignIn'],
  Authenticator: ['Disable'],
  /** ours (CONTRACT §6): the account's directory synchronization switch */
  DirectorySync: ['Update'],
  Employee: ['Create', 'Update', 'Delete', 'Lock', 'Unlock', 'SelfLock', 'SelfUnlock'],
  EnrollmentLink: ['Send'],
  ExternalSIP: ['Enable', 'Disable'],
  ExternalSMS: ['Enable', 'Disable'],
  Group: ['Create', 'Update', 'Delete'],
  IpList: ['Create', 'Update', 'Delete'],
  Project: ['Create'],
  Api: ['Enable', 'Disable'],
  PublicApiSecret: ['Update', 'Display'],
  Resource: ['Create', 'Update', 'Delete', 'DisplayResourceSecret'],
  User: ['Create', 'Update', 'Delete'],
} as const;

export type JournalObject = keyof typeof JOURNAL_EVENTS;
export type JournalAction<O extends JournalObject = JournalObject> = (typeof JOURNAL_EVENTS)[O][number];

/** Keys of additionalFields seen in SPEC.md, named once. */
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
