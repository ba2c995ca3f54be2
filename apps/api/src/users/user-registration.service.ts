import { Inject, Injectable } from '@nestjs/common';
import { AccountId, assertWithinLicenses, Clock, DomainError, UserSourceName } from '@twofold/domain';
import { AccountsRepository, GroupsRepository, isUniqueViolation, UserEntity, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';

export interface UserRegistration {
  identity: string;
  name: string | null;
  email: string | null;
  source: UserSourceName;
}

/**
 * The one way a user comes to exist, whether through POST /users or at the first visit of the access
 * page: within the account's licenses, with a unique identity. Runs in the caller's
 * transaction; the account row lock makes the license count exact under parallel creations.
 */
@Injectable()
export class UserRegistrationService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly users: UsersRepository,
    private readonly groups: GroupsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async register(accountId: AccountId, registration: UserRegistration): Promise<UserEntity> {
    const taken = () => new DomainError('USER_IDENTITY_TAKEN', `A user with the identity ${registration.identity} already exists.`);
    // an existing identity is a conflict even on a full account: nothing new would be created. Looked up
    // by the statement that locks the account row (one round trip less); one created while it waited
    // for the lock is caught by the unique index below
    const { licenses, users, identityTaken } = await this.accounts.lockForUserCreation(accountId, registration.identity);
    if (identityTaken) throw taken();
    assertWithinLicenses(users, licenses);
    try {
      return await this.users.insert(accountId, { ...registration, createdAt: this.clock.now() });
    } catch (error) {
      // the unique index is what guarantees it: the look-up above only orders the two refusals
      if (isUniqueViolation(error, 'users_account_identity')) throw taken();
      throw error;
    }
  }

  /**
   * A new user joins those of the named groups that exist in the account; the others are ignored
   * (`groupPolicyPreset.signUpGroups` of an access request). Returns the names joined.
   */
  async joinExistingGroups(accountId: AccountId, userId: string, names: readonly string[]): Promise<string[]> {
    const groups = (await this.groups.findByNames(accountId, names)).filter((group) => !group.system);
    await this.users.addToGroups(
      accountId,
      userId,
      groups.map((group) => group.id),
    );
    return groups.map((group) => group.name);
  }
}
