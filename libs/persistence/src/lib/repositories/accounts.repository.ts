import { AccountId, IdentityFormat, identityKey } from '@twofold/domain';
import { Db } from '../transaction-context';
import { AccountEntity } from '../entities';
import { announceCredentialsChange } from '../credential-changes';
import { identityMatch } from './users.repository';

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AccountEntity);
  }

  async insert(values: { name: string; displayName?: string | null; licenses: number; createdAt: Date }): Promise<AccountEntity> {
    return this.repo().save(this.repo().create({ displayName: null, ...values, apiEnabled: false, apiKey: null, apiSecretEnc: null }));
  }

  findById(accountId: AccountId): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ id: accountId });
  }

  /** The account, its row locked until the transaction ends: two changes of its API credentials queue up. */
  findForUpdate(accountId: AccountId): Promise<AccountEntity | null> {
    return this.repo().findOne({ where: { id: accountId }, lock: { mode: 'pessimistic_write' } });
  }

  list(): Promise<AccountEntity[]> {
    return this.repo().find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(): Promise<number> {
    return this.repo().count();
  }

  /** Enables, disables or re-keys the account's API; instances that cached its credentials are told (same transaction). */
  async setApi(accountId: AccountId, values: { apiEnabled: boolean; apiKey?: string; apiSecretEnc?: Buffer }): Promise<void> {
    await this.repo().update({ id: accountId }, values);
    await announceCredentialsChange(this.db, { kind: 'account', id: accountId });
  }

  /** null: the account's name again */
  async setDisplayName(accountId: AccountId, displayName: string | null): Promise<void> {
    await this.repo().update({ id: accountId }, { displayName });
  }

  /** What pages, mails and authenticator apps show for the account (its display name, else its name); null for no such account. */
  async displayNameOf(accountId: AccountId): Promise<string | null> {
    const rows: { shown: string }[] = await this.db
      .manager()
      .query('SELECT COALESCE(display_name, name) AS shown FROM accounts WHERE id = $1', [accountId]);
    return rows[0]?.shown ?? null;
  }

  /**
   * What the access page reads of the account at every visit, in one round trip: the name it shows
   * and `ip_lists_revision` (null: the account never had an IP list). Null for no such account.
   */
  async accessPageFactsOf(accountId: AccountId): Promise<{ displayName: string; ipListsRevision: string | null } | null> {
    const rows: { shown: string; revision: string | null }[] = await this.db
      .manager()
      .query('SELECT COALESCE(display_name, name) AS shown, ip_lists_revision::text AS revision FROM accounts WHERE id = $1', [accountId]);
    return rows[0] ? { displayName: rows[0].shown, ipListsRevision: rows[0].revision } : null;
  }

  /**
   * The identity format. Every API instance's verified credentials carry it in their
   * principals, so the change is announced like a change of credentials (same transaction): the
   * account's and its resources' cached pairs are verified, with the new format, at their next use.
   */
  async setIdentityFormat(accountId: AccountId, identityFormat: IdentityFormat): Promise<void> {
    await this.repo().update({ id: accountId }, { identityFormat });
    await announceCredentialsChange(this.db, { kind: 'account', id: accountId });
  }

  async setLicenses(accountId: AccountId, licenses: number): Promise<void> {
    await this.repo().update({ id: accountId }, { licenses });
  }

  async setDirectorySync(accountId: AccountId, enabled: boolean): Promise<void> {
    await this.repo().update({ id: accountId }, { directorySync: enabled });
  }

  /**
   * Locks the account row (SELECT ... FOR UPDATE) and returns its licences and its users (the count
   * the trigger keeps): user creations of one account queue up here, so the count cannot be outrun by
   * a parallel insert. With `identity`, also whether a user of the account has it (compared as
   * identities are), in the same statement: as of the statement's start, so a user created while this
   * one waited for the lock is caught by the unique index when inserting.
   */
  async lockForUserCreation(accountId: AccountId, identity?: string): Promise<{ licenses: number; users: number; identityTaken: boolean }> {
    const [taken, params] =
      identity === undefined
        ? ['false', [accountId]]
        : [
            `EXISTS (SELECT 1 FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$2', '$3')})`,
            [accountId, identityKey(identity), identity],
          ];
    const rows: { licenses: number; user_count: number; identity_taken: boolean }[] = await this.db
      .manager()
      .query(`SELECT licenses, user_count, ${taken} AS identity_taken FROM accounts WHERE id = $1 FOR UPDATE`, params);
    if (!rows[0]) throw new Error(`account ${accountId} does not exist`);
    return { licenses: rows[0].licenses, users: rows[0].user_count, identityTaken: rows[0].identity_taken };
  }
}
