import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  CustomField,
  assertCustomFieldsEditable,
  Clock,
  DomainError,
  mergeCustomFields,
  NotFound,
  planPhoneReplacement,
  removeCustomFields,
  requireExistingGroups,
  RecordId,
  UserFieldChanges,
  PRODUCT_NAME,
  MailLanguage,
  SYSTEM_GROUP_NAME,
} from '@twofold/domain';
import { JournalField, journalDetails, JournalWriter, JournalFields, journalFacts } from '@twofold/journal';
import {
  AccountsRepository,
  GroupsRepository,
  isUniqueViolation,
  UserDetails,
  UserEntity,
  UsersRepository,
  WrongCodeStreaksRepository,
} from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { AccountPrincipal } from '../auth/principal';
import { EnrollmentLinksService, redactedLink } from '../enrollment/enrollment-links.service';
import {
  CreatedUserDto,
  EnrollmentLinkDto,
  groupNamesOf,
  toUserDto,
  toUserIdentityDto,
  UserCustomFieldsDto,
  UserDto,
  UserGroupsDto,
  UserIdentityDto,
  UsersCountDto,
} from './users.dto';
import { CreateUserCommand, EnrollCommand, ListUsersQuery, UpdateUserCommand } from './users.commands';
import { UserRegistrationService } from './user-registration.service';
import { userEnrollmentMail } from '../mail/messages';

/**
 * The user API of every generation. Handlers run in the request's
 * transaction (JournalInterceptor); a change of one user's sets locks the user row first.
 */
const NO_DETAILS: UserDetails = { groups: [], authenticatorKinds: [], phones: [], customFields: [], codeLockouts: [] };

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
    private readonly wrongCodes: WrongCodeStreaksRepository,
  ) {}

  async count(accountId: AccountId): Promise<UsersCountDto> {
    const account = await this.accounts.findById(accountId);
    return { total: account?.userCount ?? 0, limit: account?.licenses ?? 0 };
  }

  async list(accountId: AccountId, query: ListUsersQuery): Promise<UserDto[]> {
    let groupId: string | undefined;
    // every user is in AllUsers without a row of user_groups
    if (query.group !== undefined && query.group.toLowerCase() !== SYSTEM_GROUP_NAME.toLowerCase()) {
      // the group's id first, as its own statement: planned with the id known, the members' statement reads a
      // small group by its index (0.4 ms for 20 of 100 000 users) where a sub-select would scan every user (110 ms)
      const [group] = await this.groups.findByNames(accountId, [query.group]);
      if (!group) return [];
      groupId = group.id;
    }
    const filter = { identity: query.identity || undefined, groupId };
    const found = await this.users.listWithDetails(accountId, filter, query.page);
    const now = this.clock.now();
    return found.map(({ user, details }) => toUserDto(user, details, { withPhones: query.withPhones, now }));
  }

  async create(principal: AccountPrincipal, command: CreateUserCommand): Promise<CreatedUserDto> {
    const { accountId } = principal;
    const { identity, name, email, source, phone, groupNames } = command;
    const groups = requireExistingGroups(groupNames, await this.groups.findByNames(accountId, groupNames));

    const user = await this.registration.register(accountId, { identity, name, email, source });
    // the identity stored (normalized by the account's format), over the one sent
    journalDetails.add(journalFacts.user(user));
    await this.users.addToGroups(
      accountId,
      user.id,
      groups.map((group) => group.id),
    );
    if (phone) await this.users.changePhones(accountId, user.id, { add: [phone], remove: [] }, this.clock.now());

    let enrollmentLink: EnrollmentLinkDto | undefined;
    if (command.enrollmentLink) {
      const { mailed, ttlMinutes, language } = command.enrollmentLink;
      const sent = await this.sendEnrollmentLink(accountId, user, mailed ? email : null, ttlMinutes, language);
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
        : [toUserDto(user, NO_DETAILS, { withPhones: false, now: this.clock.now() })];
    return enrollmentLink ? { ...dto, enrollmentLink } : dto;
  }

  /** V1 PUT /users/{id}: every field optional; null clears Name or Email. */
  async updateV1(accountId: AccountId, id: RecordId, command: UpdateUserCommand): Promise<UserDto> {
    const user = await this.findForUpdate(accountId, id);
    const { addGroups, removeGroups } = command;
    const toAdd = requireExistingGroups(addGroups, await this.groups.findByNames(accountId, addGroups));
    const toRemove = requireExistingGroups(removeGroups, await this.groups.findByNames(accountId, removeGroups));
    await this.applyFieldChanges(accountId, user, command.changes);
    if (command.changes.isLocked === false) await this.clearCodeLockouts(accountId, user);
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

  /** V2 PUT /v2/users/{id}: sets Identity, Name or Email. */
  async updateV2(accountId: AccountId, id: RecordId, changes: UserFieldChanges): Promise<UserIdentityDto> {
    const user = await this.findForUpdate(accountId, id);
    await this.applyFieldChanges(accountId, user, changes);
    return toUserIdentityDto(await this.mustFind(accountId, user.id));
  }

  async setLocked(accountId: AccountId, id: RecordId, isLocked: boolean): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    journalDetails.add({ UserLocked: String(isLocked) });
    await this.users.update(accountId, user.id, { isLocked });
    if (!isLocked) await this.clearCodeLockouts(accountId, user);
  }

  /**
   * An unlock also ends the user's lockouts for wrong codes (the helpdesk's one button):
   * every streak goes, and the journal says how many lockouts were in force.
   */
  private async clearCodeLockouts(accountId: AccountId, user: UserEntity): Promise<void> {
    const cleared = await this.wrongCodes.clear(accountId, user.id, this.clock.now());
    journalDetails.add({ CodeLockoutsCleared: String(cleared) });
  }

  /** V2: the one SMS/call number; adds it, or replaces the stored one. */
  async setPhoneV2(accountId: AccountId, id: RecordId, phone: string): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    await this.replacePhones(accountId, user, [phone]);
  }

  /** V3: the list sent replaces the stored numbers. */
  async replacePhonesV3(accountId: AccountId, id: RecordId, phones: string[]): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    await this.replacePhones(accountId, user, phones);
  }

  /** Sets or creates the listed fields, keeps the others; answers all of the user's fields after the change. */
  async updateCustomFields(accountId: AccountId, id: RecordId, updates: CustomField[]): Promise<Record<string, string>> {
    const user = await this.findForUpdate(accountId, id);
    await this.assertCustomFieldsEditable(accountId, user);
    const fields = mergeCustomFields(await this.users.customFieldsOf(accountId, user.id), updates);
    await this.users.replaceCustomFields(accountId, user.id, fields);
    journalDetails.add({ CustomFields: updates.map((field) => field.name).join(', ') });
    return Object.fromEntries(fields.map((field) => [field.name, field.value]));
  }

  /** Removes only the listed fields; unknown names are ignored. */
  async deleteCustomFields(accountId: AccountId, id: RecordId, names: string[]): Promise<UserCustomFieldsDto> {
    const user = await this.findForUpdate(accountId, id);
    await this.assertCustomFieldsEditable(accountId, user);
    const existing = await this.users.customFieldsOf(accountId, user.id);
    const fields = removeCustomFields(existing, names);
    if (fields.length !== existing.length) await this.users.replaceCustomFields(accountId, user.id, fields);
    journalDetails.add({ CustomFields: names.join(', ') });
    return { id: user.id, identity: user.identity, customFields: fields };
  }

  /** Every named group must exist; AllUsers is neither added again nor removed. */
  async changeGroups(accountId: AccountId, id: RecordId, names: string[], change: 'add' | 'remove'): Promise<UserGroupsDto> {
    const user = await this.findForUpdate(accountId, id);
    const groups = requireExistingGroups(names, await this.groups.findByNames(accountId, names));
    journalDetails.add({ GroupNames: groups.map((group) => group.name).join(', ') });
    const groupIds = groups.map((group) => group.id);
    if (change === 'add') await this.users.addToGroups(accountId, user.id, groupIds);
    else await this.users.removeFromGroups(accountId, user.id, groupIds);
    const details = (await this.users.detailsOf(accountId, [user.id])).get(user.id);
    return { id: user.id, identity: user.identity, groups: details ? groupNamesOf(details) : [] };
  }

  async delete(accountId: AccountId, id: RecordId): Promise<void> {
    const user = await this.findForUpdate(accountId, id);
    await this.users.delete(accountId, user.id);
  }

  /** POST /users/{id}/enroll: mailed when Email is given, else the link is returned. */
  async enroll(accountId: AccountId, id: RecordId, command: EnrollCommand): Promise<EnrollmentLinkDto> {
    const user = await this.findForUpdate(accountId, id);
    const sent = await this.sendEnrollmentLink(accountId, user, command.email, command.ttlMinutes, command.language);
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
    language: MailLanguage,
  ): Promise<{ link: EnrollmentLinkDto; journal: JournalFields }> {
    const issued = await this.links.issue(accountId, { userId: user.id }, { ttlMinutes, email });
    const journal: JournalFields = {
      ...journalFacts.user(user),
      [JournalField.enrollmentLink]: redactedLink(issued.url),
      [JournalField.enrollmentLinkTtl]: String(ttlMinutes),
    };
    if (!email) return { link: { url: issued.url, expiresAt: issued.expiresAt.toISOString() }, journal };
    journal[JournalField.enrollmentLinkEmail] = email;
    const brand = (await this.accounts.displayNameOf(accountId)) ?? PRODUCT_NAME;
    await this.links.mail(
      email,
      userEnrollmentMail({
        brand,
        language,
        greeting: user.name ?? user.identity,
        url: issued.url,
        ttlMinutes,
        expiresAt: issued.expiresAt,
      }),
    );
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
    const now = this.clock.now();
    return users.map((user) => toUserDto(user, details.get(user.id) ?? NO_DETAILS, { ...options, now }));
  }

  private async mustFind(accountId: AccountId, id: string): Promise<UserEntity> {
    const user = await this.users.findById(accountId, id);
    if (!user) throw new NotFound('User');
    return user;
  }

  private async findForUpdate(accountId: AccountId, id: RecordId): Promise<UserEntity> {
    journalDetails.add({ UserId: id });
    const user = await this.users.findByIdForUpdate(accountId, id);
    if (!user) throw new NotFound('User');
    journalDetails.add(journalFacts.user(user));
    return user;
  }
}
