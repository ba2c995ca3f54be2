import { ADMIN_EMAIL_MAX_LENGTH, cutText, InputFields } from '@twofold/domain';
import { JournalFields, journalPath, JournalRequest } from '@twofold/journal';

/** POST /admins: the e-mail asked for, journaled even when the body is refused. */
export function journalNewAdminIdentity({ body }: JournalRequest): JournalFields<string | undefined> {
  const email = InputFields.lenient(body).get('email');
  return { EmployeeIdentity: typeof email === 'string' ? cutText(email.trim(), ADMIN_EMAIL_MAX_LENGTH) : undefined };
}

/** `/admins/{id}`: the path's administrator, as sent, journaled even when refused. */
export const journalPathAdmin = journalPath({ id: 'EmployeeId' });
