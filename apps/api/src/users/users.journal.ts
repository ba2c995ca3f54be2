import { InputFields } from '@twofold/domain';
import { JournalFields, JournalRequest } from '@twofold/journal';

/**
 * What a request of the user API names, journaled before its body is parsed: a refused body still
 * leaves an event that says whom the caller meant.
 */

/** `/users/{id}/…`: the path's user id, as sent (the service replaces it with the user found). */
export function journalPathUser({ params }: JournalRequest): JournalFields<string | undefined> {
  return { UserId: params['id'] };
}

/** POST /users: the identity asked for. */
export function journalNewUserIdentity({ body }: JournalRequest): JournalFields<string | undefined> {
  const identity = InputFields.lenient(body).get('identity');
  return { UserIdentity: typeof identity === 'string' ? identity.trim() : undefined };
}
