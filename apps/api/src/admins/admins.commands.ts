import {
  AdminRole,
  InputFields,
  isGiven,
  MailLanguage,
  Page,
  parseMailLanguage,
  validateAdminEmail,
  validateAdminName,
  validateAdminRole,
  validateSettableAdminStatus,
  ValidationFailed,
  parseRecordId,
  RecordId,
} from '@twofold/domain';
import { PathParameters, QueryParameters } from '../http/parsed-input';

/**
 * What each call of the administrator API asks for, parsed at
 * the edge: keys in any case, values judged by libs/domain, so that a bad role answers the exact
 * "Unknown role." rather than a generic text.
 */

/** GET /admins: a page, or with `identity` the one administrator of that e-mail. */
export interface ListAdminsQuery {
  page: Page;
  identity: string | undefined;
}

export function parseListAdminsQuery(query: QueryParameters): ListAdminsQuery {
  const page = query.page();
  return { page, identity: query.single('identity')?.trim() || undefined };
}

export interface RegisterAdminCommand {
  email: string;
  /** the e-mail stands in for a name left out, as for the account owner the CLI creates */
  name: string;
  role: AdminRole;
  /** the invitation mail's language */
  language: MailLanguage;
}

export function parseRegisterAdmin(body: unknown): RegisterAdminCommand {
  const fields = InputFields.ofBody(body);
  const email = validateAdminEmail(fields.get('email'));
  const name = isGiven(fields.get('name')) ? validateAdminName(fields.get('name')) : email;
  return { email, name, role: validateAdminRole(fields.get('role')), language: parseMailLanguage(fields.get('language')) };
}

/**
 * PUT /admins/{id}: every field optional, null meaning "not given"; `status` locks or unlocks.
 * The role and status given are judged by the service once the administrator is found
 * (a status change depends on its state), so that their refusal is journaled with the administrator
 * named; here they only have to be text.
 */
export interface UpdateAdminCommand {
  name?: string;
  role?: string;
  status?: string;
}

export function parseUpdateAdmin(body: unknown): UpdateAdminCommand {
  const fields = InputFields.ofBody(body);
  const [name, role, status] = [fields.get('name'), fields.get('role'), fields.get('status')];
  if (!isGiven(name) && !isGiven(role) && !isGiven(status)) throw new ValidationFailed('Give at least one of name, role, status.');
  return {
    ...(isGiven(name) && { name: validateAdminName(name) }),
    // anything but text is refused here, with the message the service would give
    ...(isGiven(role) && { role: typeof role === 'string' ? role : validateAdminRole(role) }),
    ...(isGiven(status) && { status: typeof status === 'string' ? status : validateSettableAdminStatus(status) }),
  };
}

/** `/admins/{id}`, `/admins/lock/{id}`, …: the path's administrator. */
export function parseAdminPath(path: PathParameters): RecordId {
  return parseRecordId(path['id'], 'Administrator');
}

/** POST /admins/resend-invitation-email?id= (V1): the administrator's id, once. */
export function parseResendInvitationQuery(query: QueryParameters): RecordId {
  const id = query.single('id')?.trim();
  if (!id) throw new ValidationFailed('id is required.');
  return parseRecordId(id, 'Administrator');
}
