import { Db } from '../transaction-context';
import { AccountEntity } from '../entities';
import { announceCredentialsChange } from '../credential-changes';

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AccountEntity);
  }

  async insert(values: { name: string; licenses: number; createdAt: Date }): Promise<AccountEntity> {
    return this.repo().save(this.repo().create({ ...values, apiEnabled: false, apiKey: null, apiSecretEnc: null }));
  }

  findById(accountId: string): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ id: accountId });
  }

  /** The authentication lookup: the key is the only thing known before the account is. */
  findByApiKey(apiKey: string): Promise<AccountEntity | null> {
    return this.repo().findOneBy({ apiKey });
  }

  list(): Promise<AccountEntity[]> {
    return this.repo().find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(): Promise<number> {
    return this.repo().count();
  }

  /** Enables, disables or re-keys the account's API; instances that cached its credentials are told (same transaction). */
  async setApi(accountId: string, values: { apiEnabled: boolean; apiKey?: string; apiSecretEnc?: Buffer }): Promise<void> {
    await this.repo().update({ id: accountId }, values);
    await announceCredentialsChange(this.db.manager(), { kind: 'account', id: accountId });
  }

  async setDirectorySync(accountId: string, enabled: boolean): Promise<void> {
    await this.repo().update({ id: accountId }, { directorySync: enabled });
  }

  /**
   * The account's licences and its users as this transaction sees them. Read after inserting a user,
   * the count is exact: the insert's trigger (migration 1764300000000) updated the account row, which
   * this transaction then holds until it ends, so no parallel creation can have counted meanwhile.
   */
  async licencesAndUsers(accountId: string): Promise<{ licenses: number; users: number }> {
    const [row] = (await this.db.manager().query('SELECT licenses, user_count FROM accounts WHERE id = $1', [accountId])) as Array<{
      licenses: number;
      user_count: number;
    }>;
    if (!row) throw new Error(`account ${accountId} does not exist`);
    return { licenses: row.licenses, users: row.user_count };
  }

}
