import { Injectable } from '@nestjs/common';
import { DomainError } from '@twofold/domain';
import { JournalField, JournalWriter } from '@twofold/journal';
import { AccessRequestEntity, AccessRequestsRepository, Db, UserEntity, UserForCodeCheck, UsersRepository } from '@twofold/persistence';
import { UserRegistrationService } from '../../users/user-registration.service';

/**
 * The access page's users: the request's user, found by id or identity, or registered at the first
 * visit of an identity the account does not know. The request is bound to its user.
 */
@Injectable()
export class AccessPageNewcomers {
  constructor(
    private readonly db: Db,
    private readonly requests: AccessRequestsRepository,
    private readonly users: UsersRepository,
    private readonly registration: UserRegistrationService,
    private readonly journal: JournalWriter,
  ) {}

  /**
   * The request's user when the account has one, with its factors as the decision reads them (a visit
   * decides on this read), the request bound to them; null for a newcomer. Not locked: a visit checks
   * nothing, and a code submitted reads its user again under the lock, in its transaction.
   */
  async existingUser(row: AccessRequestEntity): Promise<UserForCodeCheck | null> {
    const found = await this.users.findForCodeCheck(row.accountId, row.userId ? { id: row.userId } : { identity: row.identity });
    if (found) await this.bind(row, found.user);
    return found;
  }

  /**
   * Registers the request's identity (journal User Create, subject the identity: the user is the one
   * acting) and joins the groups the request names that exist. Without a free licence the request is
   * Denied (`noLicense`, journaled as a refused User Create); a registration lost to a parallel visit
   * takes the user that visit registered.
   */
  async register(row: AccessRequestEntity): Promise<'registered' | 'noLicense' | 'unknown'> {
    let user: UserEntity | null;
    try {
      user = await this.db.transaction(async () => {
        const created = await this.registration.register(row.accountId, {
          identity: row.identity,
          name: null,
          email: row.email,
          source: 'Api',
        });
        const joined = await this.registration.joinExistingGroups(row.accountId, created.id, row.signUpGroups ?? []);
        await this.journal.record(row.accountId, {
          object: 'User',
          action: 'Create',
          subject: row.identity,
          success: true,
          additionalFields: {
            [JournalField.userIdentity]: row.identity,
            UserId: created.id,
            AccessRequestId: row.id,
            Source: 'AccessPage',
            ...(joined.length > 0 ? { GroupNames: joined.join(', ') } : {}),
          },
        });
        return created;
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === 'USERS_QUOTA_EXCEEDED') return this.refuseForLicence(row, error.message);
      if (error.code !== 'USER_IDENTITY_TAKEN') throw error;
      user = await this.users.findByIdentity(row.accountId, row.identity);
    }
    if (!user) return 'unknown';
    await this.bind(row, user);
    return 'registered';
  }

  private async refuseForLicence(row: AccessRequestEntity, reason: string): Promise<'noLicense'> {
    await this.journal.record(row.accountId, {
      object: 'User',
      action: 'Create',
      subject: row.identity,
      success: false,
      additionalFields: { [JournalField.userIdentity]: row.identity, AccessRequestId: row.id, Source: 'AccessPage', Reason: reason },
    });
    await this.requests.decide(row.accountId, row.id, 'Denied');
    return 'noLicense';
  }

  private async bind(row: AccessRequestEntity, user: UserEntity): Promise<void> {
    if (row.userId !== user.id) await this.requests.setUser(row.accountId, row.id, user.id);
    row.userId = user.id;
  }
}
