import { JournalField, JournalFields } from './journal-events';
import { JournalEntry } from './journal-writer';

/**
 * What an event records of each object it touches, one mapper per object: a key is written in one
 * place, and every event names a user, a target user or an administrator the same way.
 */
export const journalFacts = {
  user: (user: { id: string; identity: string }): JournalFields => ({ UserId: user.id, [JournalField.userIdentity]: user.identity }),
  /** the other user of a move or a copy */
  targetUser: (user: { id: string; identity: string }): JournalFields => ({ TargetUserId: user.id, TargetUserIdentity: user.identity }),
  employee: (admin: { id: string; identity: string }): JournalFields => ({ EmployeeId: admin.id, EmployeeIdentity: admin.identity }),
  authenticator: (authenticator: { id: string; kind: string; name: string }): JournalFields => ({
    AuthenticatorId: authenticator.id,
    AuthenticatorKind: authenticator.kind,
    AuthenticatorName: authenticator.name,
  }),
};

/**
 * `Authenticator Bind`: a user bound a factor of their own device (a Telegram chat, the mobile app),
 * journaled as the user did it; the event names the method, never the chat's or device's key.
 */
export function authenticatorBoundEntry(
  user: { id: string; identity: string },
  authenticator: { id: string; kind: string; name: string },
  method: string,
): JournalEntry<'Authenticator'> {
  return {
    object: 'Authenticator',
    action: 'Bind',
    subject: user.identity,
    success: true,
    additionalFields: { ...journalFacts.user(user), ...journalFacts.authenticator(authenticator), [JournalField.twoFactorMethod]: method },
  };
}
