import {
  InputFields,
  isGiven,
  normalizePhoneNumber,
  Page,
  parseCustomFieldNames,
  parseCustomFieldUpdates,
  parseGroupNames,
  parsePhoneNumberList,
  parseV2UserFields,
  UserFieldChanges,
  UserSourceName,
  validateEnrollmentTtl,
  validateUserEmail,
  parseUserIdentity,
  normalizeIdentity,
  validateUserName,
  validateUserSource,
  ValidationFailed,
  CustomField,
  MailLanguage,
  parseMailLanguage,
  parseRecordId,
  RecordId,
} from '@twofold/domain';
import { InputContext, PathParameters, QueryParameters } from '../http/parsed-input';

/**
 * What each call of the user API asks for, parsed from its body or query at the edge: keys
 * in any case, values judged by libs/domain with the API's exact messages, in the
 * order the fields are listed here. The service receives these and never the raw input. Every identity
 * is normalized by the caller's account's identity format (the call's InputContext).
 */

/** The identity format of the caller's account: what a parser that reads identities needs of the call. */
type CallerFormat = Pick<InputContext, 'identityFormat'>;

/** `/users/{id}/…`: the path's user. */
export function parseUserPath(path: PathParameters): RecordId {
  return parseRecordId(path['id'], 'User');
}

/** GET /users: a page, or with `identity` the one user of that identity; with `group` the members of that group. */
export interface ListUsersQuery {
  page: Page;
  identity: string | undefined;
  /** a group's name, in any case: only its members (the system group AllUsers: everyone) */
  group: string | undefined;
  /** The phones are listed only when asked for */
  withPhones: boolean;
}

export function parseBooleanQuery(raw: unknown, field: string): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  if (raw === 'true' || raw === 'True' || raw === '1') return true;
  if (raw === 'false' || raw === 'False' || raw === '0') return false;
  throw new ValidationFailed(`${field} must be true or false.`);
}

export function parseListUsersQuery(query: QueryParameters, { identityFormat: format }: CallerFormat): ListUsersQuery {
  const page = query.page();
  const given = query.single('identity')?.trim() || undefined;
  const identity = given === undefined ? undefined : normalizeIdentity(format, given, 'identity');
  const group = query.single('group')?.trim() || undefined;
  return { page, identity, group, withPhones: parseBooleanQuery(query.get('withPhones'), 'withPhones') };
}

/** An enrollment link asked for with the user: mailed to the user's Email, or returned. */
export interface EnrollmentLinkOrder {
  ttlMinutes: number;
  mailed: boolean;
  /** the mail's language */
  language: MailLanguage;
}

/** EnrollmentLink.To of POST /users: only `email` is a destination. */
function wantsMailedLink(raw: unknown): boolean {
  if (!isGiven(raw)) return false;
  if (typeof raw === 'string' && raw.trim().toLowerCase() === 'email') return true;
  throw new ValidationFailed('EnrollmentLink.To must be "email" or absent.');
}

export interface CreateUserCommand {
  identity: string;
  email: string | null;
  name: string | null;
  source: UserSourceName;
  phone: string | null;
  /** Groups.Add: names of existing groups of the account */
  groupNames: string[];
  enrollmentLink: EnrollmentLinkOrder | null;
}

export function parseCreateUser(body: unknown, { identityFormat: format }: CallerFormat): CreateUserCommand {
  const fields = InputFields.ofBody(body);
  const identity = parseUserIdentity(fields.get('identity'), format);
  const email = validateUserEmail(fields.get('email'));
  const name = validateUserName(fields.get('name'));
  const source = validateUserSource(fields.get('source'));
  const phone = isGiven(fields.get('phone')) ? normalizePhoneNumber(fields.get('phone')) : null;
  const groups = InputFields.ofOptional(fields.get('groups'), 'Groups');
  const groupNames = parseGroupNames(groups?.get('add'), 'Groups.Add', { allowEmpty: true });
  const link = InputFields.ofOptional(fields.get('enrollmentLink'), 'EnrollmentLink');
  // `Language` beside `Identity`, as POST /users/{id}/enroll and POST /admins take it, or inside
  // EnrollmentLink, which wins when both are given: either way the mail is in the language asked for
  const language = isGiven(fields.get('language')) ? parseMailLanguage(fields.get('language')) : undefined;
  let enrollmentLink: EnrollmentLinkOrder | null = null;
  if (link) {
    enrollmentLink = {
      ttlMinutes: validateEnrollmentTtl(link.get('ttl')),
      mailed: wantsMailedLink(link.get('to')),
      language: isGiven(link.get('language'))
        ? parseMailLanguage(link.get('language'), 'EnrollmentLink.Language')
        : (language ?? parseMailLanguage(undefined)),
    };
    if (enrollmentLink.mailed && !email) throw new ValidationFailed('EnrollmentLink.To is email but the user has no Email.');
  }
  return { identity, email, name, source, phone, groupNames, enrollmentLink };
}

/** V1 PUT /users/{id}: every field optional; null clears Name or Email. */
export interface UpdateUserCommand {
  changes: UserFieldChanges & { isLocked?: boolean };
  addGroups: string[];
  removeGroups: string[];
}

export function parseUpdateUser(body: unknown, { identityFormat: format }: CallerFormat): UpdateUserCommand {
  const fields = InputFields.ofBody(body);
  const changes: UpdateUserCommand['changes'] = {};
  if (isGiven(fields.get('identity'))) changes.identity = parseUserIdentity(fields.get('identity'), format);
  if (fields.get('name') !== undefined) changes.name = validateUserName(fields.get('name'));
  if (fields.get('email') !== undefined) changes.email = validateUserEmail(fields.get('email'));
  const isLocked = fields.get('isLocked');
  if (isGiven(isLocked)) {
    if (typeof isLocked !== 'boolean') throw new ValidationFailed('IsLocked must be true or false.');
    changes.isLocked = isLocked;
  }
  const groups = InputFields.ofOptional(fields.get('groups'), 'Groups');
  return {
    changes,
    addGroups: parseGroupNames(groups?.get('add'), 'Groups.Add', { allowEmpty: true }),
    removeGroups: parseGroupNames(groups?.get('remove'), 'Groups.Remove', { allowEmpty: true }),
  };
}

/** V2 PUT /users/{id}: Fields not empty, each of Identity, Name or Email and given once. */
export function parseUpdateUserFields(body: unknown, { identityFormat: format }: CallerFormat): UserFieldChanges {
  const changes = parseV2UserFields(InputFields.ofBody(body).get('fields'));
  if (changes.identity !== undefined) changes.identity = normalizeIdentity(format, changes.identity);
  return changes;
}

/** V2 POST /users/{id}/phone: the one SMS/call number. */
export function parsePhoneNumber(body: unknown): string {
  const phoneNumber = InputFields.ofBody(body).get('phoneNumber');
  if (!isGiven(phoneNumber) || phoneNumber === '') throw new ValidationFailed('PhoneNumber must not be empty.');
  return normalizePhoneNumber(phoneNumber);
}

/** V3 POST /users/{id}/phones: the list replaces the stored numbers; null or empty is refused and changes nothing (a null body is not an object: refused). */
export function parsePhoneNumbers(body: unknown): string[] {
  return parsePhoneNumberList(InputFields.ofBody(body).get('phoneNumbers'));
}

/** V2 PUT /users/{id}/customfields: listed fields are set or created, others kept; not for a synchronized Directory user. */
export function parseCustomFieldsUpdate(body: unknown): CustomField[] {
  return parseCustomFieldUpdates(InputFields.ofBody(body).get('fields'));
}

/** V2 DELETE /users/{id}/customfields: only the listed names go; not for a synchronized Directory user. */
export function parseCustomFieldsDelete(body: unknown): string[] {
  return parseCustomFieldNames(InputFields.ofBody(body).get('fieldNames'));
}

/** V2 POST and DELETE /users/{id}/groups: names not empty, each an existing group, never AllUsers. */
export function parseGroupNamesBody(body: unknown): string[] {
  return parseGroupNames(InputFields.ofBody(body).get('groupNames'), 'GroupNames', { allowEmpty: false });
}

/** POST /users/{id}/enroll: without Email the link is returned instead of mailed. */
export interface EnrollCommand {
  /** where to mail the link; null: return it */
  email: string | null;
  ttlMinutes: number;
  /** the mail's language */
  language: MailLanguage;
}

export function parseEnroll(body: unknown): EnrollCommand {
  const fields = InputFields.ofBody(body);
  const email = validateUserEmail(fields.get('email'));
  return { email, ttlMinutes: validateEnrollmentTtl(fields.get('ttl')), language: parseMailLanguage(fields.get('language')) };
}
