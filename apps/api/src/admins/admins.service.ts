import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  ADMIN_INVITATION_TTL_MINUTES,
  AdminState,
  assertInvitable,
  assertKeepsScopeAdmin,
  Clock,
  DomainError,
  NotFound,
  RecordId,
  statusAfterSet,
  unlockedStatus,
  validateAdminRole,
  validateSettableAdminStatus,
  PRODUCT_NAME,
  DEFAULT_MAIL_LANGUAGE,
  MailLanguage,
} from '@twofold/domain';
import { journalDetails, journalFacts, JournalWriter } from '@twofold/journal';
import {
  AccountsRepository,
  AdministratorEntity,
  AdministratorsRepository,
  ConsoleRepository,
  isUniqueViolation,
} from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { EnrollmentLinksService, redactedLink } from '../enrollment/enrollment-links.service';
import { PagedModel, pagedModel } from '../http/envelope';
import { AdminDto, RegisteredAdminDto, toAdminDto, toFoundAdminDto, toRegisteredAdminDto } from './admins.dto';
import { ListAdminsQuery, RegisterAdminCommand, UpdateAdminCommand } from './admins.commands';
import { administratorInvitationMail } from '../mail/messages';

function stateOf(admin: AdministratorEntity): AdminState {
  return { role: admin.role, status: admin.status, activated: admin.activatedAt !== null };
}

/**
 * The administrator API. Changes that could take away the
 * account's last Active Admin first lock all of its Active Admins (SELECT ... FOR UPDATE, in the
 * request's transaction) and count them under that lock, so parallel requests cannot both pass.
 */
@Injectable()
export class AdminsService {
  constructor(
    private readonly admins: AdministratorsRepository,
    private readonly consoleRows: ConsoleRepository,
    private readonly accounts: AccountsRepository,
    private readonly links: EnrollmentLinksService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly journal: JournalWriter,
  ) {}

  /** The page of administrators, or with `identity` the one administrator of that e-mail. */
  async list(accountId: AccountId, { page, identity }: ListAdminsQuery): Promise<PagedModel<AdminDto> | AdminDto> {
    if (identity) {
      const admin = await this.admins.findByIdentity(accountId, identity);
      if (!admin) throw new NotFound('Administrator');
      return toFoundAdminDto(admin);
    }
    const [admins, totalElements] = await this.admins.list(accountId, page);
    return pagedModel(admins, totalElements, page, toAdminDto);
  }

  async register(accountId: AccountId, { email, name, role, language }: RegisterAdminCommand): Promise<RegisteredAdminDto> {
    let admin: AdministratorEntity;
    try {
      admin = await this.admins.insert(accountId, {
        identity: email,
        name,
        role,
        status: 'Pending',
        registrationDate: this.clock.now(),
        lastLoginDate: null,
        activatedAt: null,
        mailLanguage: language,
      });
    } catch (error) {
      if (isUniqueViolation(error, 'administrators_account_identity')) {
        throw new DomainError('ADMIN_EMAIL_TAKEN', `An administrator with the e-mail ${email} already exists.`);
      }
      throw error;
    }
    journalDetails.add({ EmployeeId: admin.id });
    await this.invite(accountId, admin, language);
    return toRegisteredAdminDto(admin);
  }

  /** `actor`: who asks (the journal's subject), named in the SelfUnlock of a self-locked administrator. */
  async update(accountId: AccountId, id: RecordId, command: UpdateAdminCommand, actor: string): Promise<void> {
    const scopeAdmins = await this.lockScopeAdmins(accountId, id);
    const admin = await this.findForUpdate(accountId, id);
    const name = command.name ?? admin.name;
    const role = command.role !== undefined ? validateAdminRole(command.role) : admin.role;
    const status =
      command.status !== undefined ? statusAfterSet(stateOf(admin), validateSettableAdminStatus(command.status)) : admin.status;
    assertKeepsScopeAdmin(admin, { role, status }, scopeAdmins);
    await this.admins.update(accountId, admin.id, { name, role, status });
    // a locked administrator's console sessions end now, and stay ended once they are unlocked
    if (status !== 'Active') await this.consoleRows.revokeSessionsOf(accountId, admin.id, this.clock.now());
    else if (admin.status !== 'Active') await this.afterUnlock(accountId, admin, actor);
  }

  /**
   * The administrator locks themselves out of the console (Employee SelfLock, journaled by the
   * caller); the last-scope-admin rule holds as for any lock, and only another Admin unlocks them.
   */
  async selfLock(accountId: AccountId, id: RecordId): Promise<void> {
    await this.update(accountId, id, { status: 'Locked' }, '');
    await this.consoleRows.markSelfLocked(accountId, id);
  }

  async delete(accountId: AccountId, id: RecordId): Promise<void> {
    const scopeAdmins = await this.lockScopeAdmins(accountId, id);
    const admin = await this.findForUpdate(accountId, id);
    assertKeepsScopeAdmin(admin, null, scopeAdmins);
    await this.admins.delete(accountId, admin.id);
  }

  async lock(accountId: AccountId, id: RecordId): Promise<void> {
    await this.update(accountId, id, { status: 'Locked' }, '');
  }

  async unlock(accountId: AccountId, id: RecordId, actor: string): Promise<void> {
    const admin = await this.findForUpdate(accountId, id);
    await this.admins.update(accountId, admin.id, { status: unlockedStatus(stateOf(admin)) });
    await this.afterUnlock(accountId, admin, actor);
  }

  /** Unlocked from a TemporaryLocked: five more tries, not one; from a self-lock: journaled SelfUnlock too. */
  private async afterUnlock(accountId: AccountId, admin: AdministratorEntity, actor: string): Promise<void> {
    await this.consoleRows.resetSecondFactorFailures(accountId, admin.id);
    if (await this.consoleRows.clearSelfLocked(accountId, admin.id)) {
      await this.journal.record(accountId, {
        object: 'Employee',
        action: 'SelfUnlock',
        subject: actor,
        success: true,
        additionalFields: journalFacts.employee(admin),
      });
    }
  }

  /** A new invitation link for a Pending administrator; the older link stops working. */
  async resendInvitation(accountId: AccountId, id: RecordId): Promise<void> {
    const admin = await this.admins.findById(accountId, id);
    if (!admin) throw new NotFound('Administrator');
    journalDetails.add(journalFacts.employee(admin));
    assertInvitable(admin);
    await this.invite(accountId, admin, admin.mailLanguage ?? DEFAULT_MAIL_LANGUAGE);
  }

  /**
   * Mails the link to the administrator's own second-factor setup, in `language`: a
   * re-sent invitation (no Language in its call) is written in the first one's.
   */
  private async invite(accountId: AccountId, admin: AdministratorEntity, language: MailLanguage): Promise<void> {
    const link = await this.links.issue(
      accountId,
      { administratorId: admin.id },
      { ttlMinutes: ADMIN_INVITATION_TTL_MINUTES, email: admin.identity },
    );
    journalDetails.add({
      EnrollmentLink: redactedLink(link.url),
      EnrollmentLinkEmail: admin.identity,
      EnrollmentLinkTTL: String(ADMIN_INVITATION_TTL_MINUTES),
    });
    const brand = (await this.accounts.displayNameOf(accountId)) ?? PRODUCT_NAME;
    await this.links.mail(
      admin.identity,
      administratorInvitationMail({
        brand,
        language,
        greeting: admin.name,
        url: link.url,
        ttlMinutes: ADMIN_INVITATION_TTL_MINUTES,
        expiresAt: link.expiresAt,
      }),
    );
  }

  /** Locks the account's Active Admins and tells how many there are; first, so every caller locks in one order. */
  private async lockScopeAdmins(accountId: AccountId, id: RecordId): Promise<number> {
    journalDetails.add({ EmployeeId: id });
    return (await this.admins.lockActiveScopeAdmins(accountId)).length;
  }

  private async findForUpdate(accountId: AccountId, id: RecordId): Promise<AdministratorEntity> {
    journalDetails.add({ EmployeeId: id });
    const admin = await this.admins.findByIdForUpdate(accountId, id);
    if (!admin) throw new NotFound('Administrator');
    journalDetails.add(journalFacts.employee(admin));
    return admin;
  }
}
