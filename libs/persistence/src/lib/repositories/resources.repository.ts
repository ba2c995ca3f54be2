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

  /** A new secret for the same key; instances that cached the old one are told (same transaction). */
  async replaceSecret(accountId: AccountId, id: string, apiSecretEnc: Buffer): Promise<void> {
    await this.repo().update({ accountId, id }, { apiSecretEnc });
    await announceCredentialsChange(this.db, { kind: 'resource', id });
  }

  /** Instances that cached the resource's credentials are told (same transaction). */
  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
    await announceCredentialsChange(this.db, { kind: 'resource', id });
  }
}
