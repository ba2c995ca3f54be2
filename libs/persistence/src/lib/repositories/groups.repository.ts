import { Db } from '../transaction-context';
import { GroupEntity } from '../entities';
import { AccountId, Page } from '@twofold/domain';

export class GroupsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(GroupEntity);
  }

  insert(accountId: AccountId, values: { name: string; system: boolean; createdAt: Date }): Promise<GroupEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId }));
  }

  list(accountId: AccountId, page: Page): Promise<[GroupEntity[], number]> {
    return this.repo().findAndCount({
      where: { accountId },
      order: { system: 'DESC', createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findById(accountId: AccountId, id: string): Promise<GroupEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  async rename(accountId: AccountId, id: string, name: string): Promise<void> {
    await this.repo().update({ accountId, id }, { name });
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }

  /** The groups of these names, compared case-insensitively like the unique index groups_account_name. */
  findByNames(accountId: AccountId, names: readonly string[]): Promise<GroupEntity[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.repo()
      .createQueryBuilder('g')
      .where('g.account_id = :accountId', { accountId })
      .andWhere('lower(g.name) IN (:...names)', { names: names.map((name) => name.toLowerCase()) })
      .getMany();
  }
}
