import { AccountId, Page, SCOPE_ADMIN_ROLE } from '@twofold/domain';
import { Db } from '../transaction-context';
import { AdministratorEntity } from '../entities';

/** A new administrator; `activatedAt` defaults to the registration date for one created Active. */
export type NewAdministrator = Pick<AdministratorEntity, 'identity' | 'name' | 'role' | 'status' | 'registrationDate' | 'lastLoginDate'> & {
  activatedAt?: Date | null;
  mailLanguage?: AdministratorEntity['mailLanguage'];
};

/** first key of the advisory lock on an owner's e-mail during `account create` */
const OWNER_LOCK_CLASS = 7_276_366;

export class AdministratorsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AdministratorEntity);
  }

  insert(accountId: AccountId, values: NewAdministrator): Promise<AdministratorEntity> {
    const activatedAt = values.activatedAt !== undefined ? values.activatedAt : values.status === 'Active' ? values.registrationDate : null;
    return this.repo().save(this.repo().create({ mailLanguage: null, ...values, activatedAt, accountId }));
  }

  findById(accountId: AccountId, id: string): Promise<AdministratorEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  /** Identities are compared case-insensitively, like the unique index administrators_account_identity. */
  findByIdentity(accountId: AccountId, identity: string): Promise<AdministratorEntity | null> {
    return this.repo()
      .createQueryBuilder('a')
      .where('a.account_id = :accountId', { accountId })
      .andWhere('lower(a.identity) = lower(:identity)', { identity })
      .getOne();
  }

  /**
   * The operator's question across accounts (`account create`): the accounts where `identity` is an
   * administrator with role Admin, oldest first. Inside a transaction it first takes a lock on the
   * identity, so two creations for one owner queue up and the second sees the first's account.
   */
  async accountsAdministeredBy(identity: string): Promise<AccountId[]> {
    // two-key form: its key space is apart from the one-key locks (migrations, token keys)
    await this.db.manager().query('SELECT pg_advisory_xact_lock($1, hashtext(lower($2)))', [OWNER_LOCK_CLASS, identity]);
    const rows: { account_id: AccountId }[] = await this.db
      .manager()
      .query(
        'SELECT a.account_id FROM administrators a JOIN accounts c ON c.id = a.account_id WHERE lower(a.identity) = lower($1) AND a.role = $2 ORDER BY c.created_at, c.id',
        [identity, SCOPE_ADMIN_ROLE],
      );
    return rows.map((r) => r.account_id);
  }

  listAll(accountId: AccountId): Promise<AdministratorEntity[]> {
    return this.repo().find({ where: { accountId }, order: { registrationDate: 'ASC', id: 'ASC' } });
  }

  list(accountId: AccountId, page: Page): Promise<[AdministratorEntity[], number]> {
    return this.repo().findAndCount({
      where: { accountId },
      order: { registrationDate: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  /**
   * Locks (SELECT ... FOR UPDATE) and returns the account's Active administrators with role Admin, in
   * id order so parallel callers queue up instead of deadlocking. A caller that must not take the last
   * one away counts them under this lock; only inside a transaction.
   */
  lockActiveScopeAdmins(accountId: AccountId): Promise<AdministratorEntity[]> {
    return this.repo()
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.account_id = :accountId', { accountId })
      .andWhere(`a.status = 'Active'`)
      .andWhere('a.role = :scopeRole', { scopeRole: SCOPE_ADMIN_ROLE })
      .orderBy('a.id', 'ASC')
      .getMany();
  }

  /** The administrator, locked for the rest of the transaction, as it is after any change committed before. */
  findByIdForUpdate(accountId: AccountId, id: string): Promise<AdministratorEntity | null> {
    return this.repo()
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.account_id = :accountId', { accountId })
      .andWhere('a.id = :id', { id })
      .getOne();
  }

  async update(
    accountId: AccountId,
    id: string,
    values: Partial<Pick<AdministratorEntity, 'name' | 'role' | 'status' | 'activatedAt'>>,
  ): Promise<void> {
    await this.repo().update({ accountId, id }, values);
  }

  /** The invitation completed: their second factor is kept, and a Pending administrator becomes Active. */
  async completeEnrollment(accountId: AccountId, id: string, secondFactorSecretEnc: Buffer, at: Date): Promise<void> {
    await this.repo()
      .createQueryBuilder()
      .update()
      .set({
        secondFactorSecretEnc,
        status: () => "CASE WHEN status = 'Pending' THEN 'Active' ELSE status END",
        activatedAt: () => 'COALESCE(activated_at, CAST(:at AS timestamptz))',
      })
      .where('account_id = :accountId AND id = :id', { accountId, id, at })
      .execute();
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }
}
