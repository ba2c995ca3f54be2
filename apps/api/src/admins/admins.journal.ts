import { ADMIN_EMAIL_MAX_LENGTH, cutText, InputFields } from '@twofold/domain';
import { JournalFields, JournalRequest } from '@twofold/journal';

/** POST /admins: the e-mail asked for, journaled even when the body is refused. */
export function journalNewAdminIdentity({ body }: JournalRequest): JournalFields<string | undefined> {
  const email = InputFields.lenient(body).get('email');
  return { EmployeeIdentity: typeof email === 'string' ? cutText(email.trim(), ADMIN_EMAIL_MAX_LENGTH) : undefined };
}

/** `/admins/{id}`: the path's administrator, as sent (the service replaces it with the one found), journaled even when refused. */
export function journalPathAdmin({ params }: JournalRequest): JournalFields<string | undefined> {
  return { EmployeeId: params['id'] };
}
