import { Db } from '../transaction-context';
import { announceCredentialsChange } from '../credential-changes';
import { AccountEntity, ResourceEntity } from '../entities';
import { AccountId, IdentityFormat, Page } from '@twofold/domain';

export class ResourcesRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(ResourceEntity);
  }

  insert(
    accountId: AccountId,
    values: Omit<ResourceEntity, 'id' | 'accountId' | 'tokenFormat' | 'frameOrigins'> &
      Partial<Pick<ResourceEntity, 'tokenFormat' | 'frameOrigins'>>,
  ): Promise<ResourceEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId }));
  }

  list(accountId: AccountId, page: Page): Promise<[ResourceEntity[], number]> {
    return this.repo().findAndCount({
      where: { accountId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findById(accountId: AccountId, id: string): Promise<ResourceEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  /** The authentication lookup for access requests: the key is all that is known beforehand. */
  findByApiKey(apiKey: string): Promise<ResourceEntity | null> {
    return this.repo().findOneBy({ apiKey });
  }

  /**
   * The authentication lookup, with what a resource's principal carries of its account: the identity
   * format (issue 14), read by the same statement so that the hot paths pay no round trip for it.
   */
  async findByApiKeyWithAccount(apiKey: string): Promise<{ resource: ResourceEntity; identityFormat: IdentityFormat } | null> {
    const { entities, raw } = await this.repo()
      .createQueryBuilder('r')
      .innerJoin(AccountEntity, 'a', 'a.id = r.account_id')
      .addSelect('a.identity_format', 'account_identity_format')
      .where('r.api_key = :apiKey', { apiKey })
      .getRawAndEntities<{ account_identity_format: IdentityFormat }>();
    if (!entities[0]) return null;
    return { resource: entities[0], identityFormat: raw[0].account_identity_format };
  }

  async rename(accountId: AccountId, id: string, name: string): Promise<void> {
    await this.repo().update({ accountId, id }, { name });
  }

  /** The fields given change; the others stay as they are. */
  async update(
    accountId: AccountId,
    id: string,
    changes: Partial<Pick<ResourceEntity, 'name' | 'tokenFormat' | 'frameOrigins'>>,
  ): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.repo().update({ accountId, id }, changes);
  }

  /** Instances that cached the resource's credentials are told (same transaction). */
  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
    await announceCredentialsChange(this.db.manager(), { kind: 'resource', id });
  }
}
