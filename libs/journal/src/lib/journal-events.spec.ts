import { JOURNAL_EVENTS, isJournalEvent } from './journal-events';

describe('journal events table', () => {
  it('holds the journal constants of the API exactly, plus EnrollmentLink Send, Employee Create, DirectorySync Update, Authenticator Enable and Bind, AccessRequest Reject and PhoneCodeLimit, ExternalSMS ChangeDestinations, Accounts ChangeDisplayName and ChangeLicenses, BypassCode and RecoveryCode Create and Use', () => {
    expect(JOURNAL_EVENTS).toEqual({
      AccessRequest: ['Bypass', 'Reject', 'PhoneCodeLimit'],
      Accounts: ['RenameAndRemoveDuplicates', 'ChangeNameFormat', 'ChangeDisplayName', 'ChangeLicenses'],
      AdminPanel: ['SignIn'],
      BypassCode: ['Create', 'Use'],
      Authenticator: ['Disable', 'Enable', 'Bind', 'Resync'],
      DirectorySync: ['Update'],
      Employee: ['Create', 'Update', 'Delete', 'Lock', 'Unlock', 'SelfLock', 'SelfUnlock'],
      EnrollmentLink: ['Send'],
      ExternalSIP: ['Enable', 'Disable'],
      ExternalSMS: ['Enable', 'Disable', 'ChangeDestinations'],
      Group: ['Create', 'Update', 'Delete'],
      IpList: ['Create', 'Update', 'Delete'],
      Project: ['Create'],
      Api: ['Enable', 'Disable'],
      PublicApiSecret: ['Update', 'Display'],
      Resource: ['Create', 'Update', 'Delete', 'DisplayResourceSecret'],
      RecoveryCode: ['Create', 'Use'],
      SelfService: ['ChangeSupportInfo', 'ChangeShowcase', 'UploadLogo', 'DeleteLogo'],
      User: ['Create', 'Update', 'Delete'],
    });
  });

  it('tells events from non-events', () => {
    expect(isJournalEvent('User', 'Create')).toBe(true);
    expect(isJournalEvent('User', 'Lock')).toBe(false);
    expect(isJournalEvent('Nope', 'Create')).toBe(false);
  });
});
