import { Db } from '../transaction-context';
import { GroupEntity } from '../entities';
import { Page } from '@twofold/domain';

export class GroupsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(GroupEntity);
  }

  insert(accountId: string, values: { name: string; system: boolean; createdAt: Date }): Promise<GroupEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId }));
  }

  list(accountId: string, page: Page): Promise<[GroupEntity[], number]> {
    return this.repo().findAndCount({
      where: { accountId },
      order: { system: 'DESC', createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findById(accountId: string, id: string): Promise<GroupEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  async rename(accountId: string, id: string, name: string): Promise<void> {
    await this.repo().update({ accountId, id }, { name });
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }

  /** The groups of these names, compared case-insensitively like the unique index groups_account_name. */
  findByNames(accountId: string, names: readonly string[]): Promise<GroupEntity[]> {
    if (names.length === 0) return Promise.resolve([]);
    return this.repo()
      .createQueryBuilder('g')
      .where('g.account_id = :accountId', { accountId })
      .andWhere('lower(g.name) IN (:...names)', { names: names.map((name) => name.toLowerCase()) })
      .getMany();
  }
}
