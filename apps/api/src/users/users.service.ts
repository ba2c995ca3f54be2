import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  assertCustomFieldsEditable,
  Clock,
  DomainError,
  isGiven,
  mergeCustomFields,
  normalizePhoneNumber,
  NotFound,
  parseCustomFieldNames,
  parseCustomFieldUpdates,
  parseGroupNames,
  parsePhoneNumberList,
  parseV2UserFields,
  planPhoneReplacement,
  removeCustomFields,
  requireExistingGroups,
  requireUuid,
  UserFieldChanges,
  validateEnrollmentTtl,
  validateUserEmail,
  validateUserIdentity,
  validateUserName,
  validateUserSource,
  ValidationFailed,
} from '@twofold/domain';
import { JournalField, journalDetails, JournalWriter, JournalFields } from '@twofold/journal';
import { AccountsRepository, GroupsRepository, isUniqueViolation, UserDetails, UserEntity, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../app/tokens';
import { AccountPrincipal } from '../auth/principal';
import { EnrollmentLinksService, redactedLink } from '../enrollment/enrollment-links.service';
import { lowerCaseKeys, singleQueryValue } from '../http/case-insensitive-keys';
import { pageOfQuery } from '../http/envelope';
import {
  CreatedUserDto,
  CreateUserRequest,
  CustomFieldsDeleteRequest,
  CustomFieldsUpdateRequest,
  EnrollmentLinkDto,
  EnrollmentLinkRequest,
  EnrollRequest,
  GroupChangesRequest,
  GroupNamesRequest,
  groupNamesOf,
  PhoneNumberRequest,
  PhoneNumbersRequest,
  toUserDto,
  toUserIdentityDto,
  UpdateUserFieldsRequest,
  UpdateUserRequest,
  UserCustomFieldsDto,
  UserDto,
  UserGroupsDto,
  UserIdentityDto,
  UsersCountDto,
} from './users.dto';
import { UserRegistrationService } from './user-registration.service';
import { userEnrollmentMail } from '../mail/messages';

function objectOrEmpty<T extends object>(raw: unknown, field: string): Partial<T> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationFailed(`${field} must be an object.`);
  return raw as Partial<T>;
}

function parseBooleanQuery(raw: unknown, field: string): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  if (raw === 'true' || raw === 'True' || raw === '1') return true;
  if (raw === 'false' || raw === 'False' || raw === '0') return false;
  throw new ValidationFailed(`${field} must be true or false.`);
}

/** EnrollmentLink.To of POST /users: only `email` is a destination (SPEC.md). */
function wantsMailedLink(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw === 'string' && raw.trim().toLowerCase() === 'email') return true;
  throw new ValidationFailed('EnrollmentLink.To must be "email" or absent.');
}

/**
 * The user API of every generation (SPEC.md "Users", CONTRACT §6). Handlers run in the request's
 * transaction (JournalInterceptor); a change of one user's sets locks the user row first.
 */
const NO_DETAILS: UserDetails = { groups: [], authenticatorKinds: [], phones: [], customFields: [] };

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly groups: GroupsRepository,
    private readonly registration: UserRegistrationService,
    private readonly links: EnrollmentLinksService,
    private readonly journal: JournalWriter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async count(accountId: AccountId): Promise<UsersCountDto> {
    const account = await this.accounts.findById(accountId);
    return { total: account?.userCount ?? 0, limit: account?.licenses ?? 0 };
  }

  async list(accountId: AccountId, query: Record<string, unknown>): Promise<UserDto[]> {
    const lower = lowerCaseKeys(query);
    const page = pageOfQuery(query);
    const identity = singleQueryValue('identity', lower['identity'])?.trim();
    const withPhones = parseBooleanQuery(lower['withphones'], 'withPhones');
    const filter = identity ? { identity } : {};
    const found = await this.users.listWithDetails(accountId, filter, page);
    return found.map(({ user, details }) => toUserDto(user, details, { withPhones }));
  }

  async create(principal: AccountPrincipal, body: CreateUserRequest): Promise<CreatedUserDto> {
    const { accountId } = principal;
    if (typeof body.identity === 'string') journalDetails.add({ [JournalField.userIdentity]: body.identity.trim() });
    const identity = validateUserIdentity(body.identity);
    const email = validateUserEmail(body.email);
    const name = validateUserName(body.name);
    const source = validateUserSource(body.source);
    const phone = isGiven(body.phone) ? normalizePhoneNumber(body.phone) : null;
    const groupChanges = objectOrEmpty<GroupChangesRequest>(body.groups, 'Groups');
    const groupNames = parseGroupNames(groupChanges.add, 'Groups.Add', { allowEmpty: true });
    const linkRequest = isGiven(body.enrollmentLink) ? objectOrEmpty<EnrollmentLinkRequest>(body.enrollmentLink, 'EnrollmentLink') : null;
    const ttl = linkRequest ? validateEnrollmentTtl(linkRequest.ttl) : null;
    const mailLink = linkRequest ? wantsMailedLink(linkRequest.to) : false;
    if (mailLink && !email) throw new ValidationFailed('EnrollmentLink.To is email but the user has no Email.');
    const groups = requireExistingGroups(groupNames, await this.groups.findByNames(accountId, groupNames));

    const user = await this.registration.register(accountId, { identity, name, email, source });
    journalDetails.add({ UserId: user.id });
    await this.users.addToGroups(
      accountId,
      user.id,
      groups.map((group) => group.id),
    );
    if (phone) await this.users.changePhones(accountId, user.id, { add: [phone], remove: [] }, this.clock.now());

    let enrollmentLink: EnrollmentLinkDto | undefined;
    if (linkRequest && ttl !== null) {
      const sent = await this.sendEnrollmentLink(accountId, user, mailLink ? email : null, ttl);
      await this.journal.record(accountId, {
        object: 'EnrollmentLink',
        action: 'Send',
        subject: principal.login,
        success: true,
        additionalFields: sent.journal,
      });
      enrollmentLink = sent.link;
    }
    // a user created this instant has no groups, phones, authenticators or custom fields but those this
    // request added: only then are they read back (one statement less while the account row is locked)
    const [dto] =
      groups.length > 0 || phone
        ? await this.toDtos(accountId, [user], { withPhones: false })
        : [toUserDto(user, NO_DETAILS, { withPhones: false })];
    return enrollmentLink ? { ...dto, enrollmentLink } : dto;
  }

  /** V1 PUT /users/{id}: every field optional; null clears Name or Email. */
  async updateV1(accountId: AccountId, id: string, body: UpdateUserRequest): Promise<UserDto> {
    const user = await this.findForUpdate(accountId, id);
    const changes: UserFieldChanges & { isLocked?: boolean } = {};
    if (isGiven(body.identity)) changes.identity = validateUserIdentity(body.identity);
    if (body.name !== undefined) changes.name = validateUserName(body.name);
    if (body.email !== undefined) changes.email = validateUserEmail(body.email);
    if (isGiven(body.isLocked)) {
      if (typeof body.isLocked !== 'boolean') throw new ValidationFailed('IsLocked must be true or false.');
      changes.isLocked = body.isLocked;
    }
    const groupChanges = objectOrEmpty<GroupChangesRequest>(body.groups, 'Groups');
    const add = parseGroupNames(groupChanges.add, 'Groups.Add', { allowEmpty: true });
    const remove = parseGroupNames(groupChanges.remove, 'Groups.Remove', { allowEmpty: true });
    const toAdd = requireExistingGroups(add, await this.groups.findByNames(accountId, add));
    const toRemove = requireExistingGroups(remove, await this.groups.findByNames(accountId, remove));
    await this.applyFieldChanges(accountId, user, changes);
    await this.users.addToGroups(
      accountId,
      user.id,
      toAdd.map((group) => group.id),
    );
    await this.users.removeFromGroups(
      accountId,
      user.id,
      toRemove.map((group) => group.id),
    );
    const updated = await this.mustFind(accountId, user.id);
    const [dto] = await this.toDtos(accountId, [updated], { withPhones: false });
    return dto;
  }

  /** V2 PUT /v2/users/{id}: SPEC.md rule 1. */
  async updateV2(accountId: AccountId, id: string, body: UpdateUserFieldsRequest): Promise<UserIdentityDto> {
    const user = await this.findForUpdate(accountId, id);
    const changes = parseV2UserFields(body.fields);
    await this.applyFieldChanges(accountId, user, changes);
    return toUserIdentityDto(await this.mustFind(accountId, user.id));
  }

  async setLocked(accountId: AccountId, id: string, isLocked: boolean): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    journalDetails.add({ UserLocked: String(isLocked) });
    await this.users.update(accountId, user.id, { isLocked });
  }

  /** V2: the one SMS/call number; adds it, or replaces the stored one. */
  async setPhoneV2(accountId: AccountId, id: string, body: PhoneNumberRequest): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    if (!isGiven(body.phoneNumber) || body.phoneNumber === '') throw new ValidationFailed('PhoneNumber must not be empty.');
    const phone = normalizePhoneNumber(body.phoneNumber);
    await this.replacePhones(accountId, user, [phone]);
  }

  /** V3: SPEC.md rules 6-8 with CONTRACT §6. */
  async replacePhonesV3(accountId: AccountId, id: string, body: PhoneNumbersRequest | null): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    if (!body) throw new ValidationFailed('The request body must not be null.');
    await this.replacePhones(accountId, user, parsePhoneNumberList(body.phoneNumbers));
  }

  /** SPEC.md rules 2 and 4; answers all of the user's fields after the change. */
  async updateCustomFields(accountId: AccountId, id: string, body: CustomFieldsUpdateRequest): Promise<Record<string, string>> {
    const user = await this.findForUpdate(accountId, id);
    const updates = parseCustomFieldUpdates(body.fields);
    await this.assertCustomFieldsEditable(accountId, user);
    const fields = mergeCustomFields(await this.users.customFieldsOf(accountId, user.id), updates);
    await this.users.replaceCustomFields(accountId, user.id, fields);
    journalDetails.add({ CustomFields: updates.map((field) => field.name).join(', ') });
    return Object.fromEntries(fields.map((field) => [field.name, field.value]));
  }

  /** SPEC.md rules 3 and 4. */
  async deleteCustomFields(accountId: AccountId, id: string, body: CustomFieldsDeleteRequest): Promise<UserCustomFieldsDto> {
    const user = await this.findForUpdate(accountId, id);
    const names = parseCustomFieldNames(body.fieldNames);
    await this.assertCustomFieldsEditable(accountId, user);
    const existing = await this.users.customFieldsOf(accountId, user.id);
    const fields = removeCustomFields(existing, names);
    if (fields.length !== existing.length) await this.users.replaceCustomFields(accountId, user.id, fields);
    journalDetails.add({ CustomFields: names.join(', ') });
    return { id: user.id, identity: user.identity, customFields: fields };
  }

  /** SPEC.md rule 5. */
  async changeGroups(accountId: AccountId, id: string, body: GroupNamesRequest, change: 'add' | 'remove'): Promise<UserGroupsDto> {
    const user = await this.findForUpdate(accountId, id);
    const names = parseGroupNames(body.groupNames, 'GroupNames', { allowEmpty: false });
    const groups = requireExistingGroups(names, await this.groups.findByNames(accountId, names));
    journalDetails.add({ GroupNames: groups.map((group) => group.name).join(', ') });
    const groupIds = groups.map((group) => group.id);
    if (change === 'add') await this.users.addToGroups(accountId, user.id, groupIds);
    else await this.users.removeFromGroups(accountId, user.id, groupIds);
    const details = (await this.users.detailsOf(accountId, [user.id])).get(user.id);
    return { id: user.id, identity: user.identity, groups: details ? groupNamesOf(details) : [] };
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    await this.users.delete(accountId, user.id);
  }

  /** POST /users/{id}/enroll: SPEC.md rule 9, CONTRACT §6. */
  async enroll(accountId: AccountId, id: string, body: EnrollRequest): Promise<EnrollmentLinkDto> {
    const user = await this.findForUpdate(accountId, id);
    const email = validateUserEmail(body.email);
    const ttl = validateEnrollmentTtl(body.ttl);
    const sent = await this.sendEnrollmentLink(accountId, user, email, ttl);
    journalDetails.add(sent.journal);
    return sent.link;
  }

  /**
   * A new enrollment link for the user (older ones stop working); mailed when there is an address,
   * else returned. The journal gets the link with its token cut short: it is a credential.
   */
  private async sendEnrollmentLink(
    accountId: AccountId,
    user: UserEntity,
    email: string | null,
    ttlMinutes: number,
  ): Promise<{ link: EnrollmentLinkDto; journal: JournalFields }> {
    const issued = await this.links.issue(accountId, { userId: user.id }, { ttlMinutes, email });
    const journal: JournalFields = {
      UserId: user.id,
      [JournalField.userIdentity]: user.identity,
      [JournalField.enrollmentLink]: redactedLink(issued.url),
      [JournalField.enrollmentLinkTtl]: String(ttlMinutes),
    };
    if (!email) return { link: { url: issued.url, expiresAt: issued.expiresAt.toISOString() }, journal };
    journal[JournalField.enrollmentLinkEmail] = email;
    await this.links.mail(email, userEnrollmentMail(user.name ?? user.identity, issued.url, issued.expiresAt));
    return { link: { expiresAt: issued.expiresAt.toISOString() }, journal };
  }

  private async replacePhones(accountId: AccountId, user: UserEntity, wanted: string[]): Promise<void> {
    const change = planPhoneReplacement(await this.users.phonesOf(accountId, user.id), wanted);
    await this.users.changePhones(accountId, user.id, change, this.clock.now());
    journalDetails.add({ PhonesAdded: String(change.add.length), PhonesRemoved: String(change.remove.length) });
  }

  private async assertCustomFieldsEditable(accountId: AccountId, user: UserEntity): Promise<void> {
    const account = await this.accounts.findById(accountId);
    assertCustomFieldsEditable(user, account?.directorySync ?? false);
  }

  private async applyFieldChanges(
    accountId: AccountId,
    user: UserEntity,
    changes: UserFieldChanges & { isLocked?: boolean },
  ): Promise<void> {
    try {
      await this.users.update(accountId, user.id, changes);
    } catch (error) {
      if (isUniqueViolation(error, 'users_account_identity')) {
        throw new DomainError('USER_IDENTITY_TAKEN', `A user with the identity ${changes.identity} already exists.`);
      }
      throw error;
    }
  }

  private async toDtos(accountId: AccountId, users: UserEntity[], options: { withPhones: boolean }): Promise<UserDto[]> {
    const details = await this.users.detailsOf(
      accountId,
      users.map((user) => user.id),
    );
    return users.map((user) => toUserDto(user, details.get(user.id) ?? NO_DETAILS, options));
  }

  private async mustFind(accountId: AccountId, id: string): Promise<UserEntity> {
    const user = await this.users.findById(accountId, id);
    if (!user) throw new NotFound('User');
    return user;
  }

  private async findForUpdate(accountId: AccountId, id: string): Promise<UserEntity> {
    journalDetails.add({ UserId: id });
    const user = await this.users.findByIdForUpdate(accountId, requireUuid(id, 'User'));
    if (!user) throw new NotFound('User');
    journalDetails.add({ [JournalField.userIdentity]: user.identity });
    return user;
  }
}
