import { Db } from '../transaction-context';
import { announceCredentialsChange } from '../credential-changes';
import { AccountEntity, ResourceEntity } from '../entities';
import { AccountId, IdentityFormat, Page } from '@twofold/domain';

/**
 * Access requests deleted per statement when their resource is deleted: each statement stays far under
 * the statement timeout (about 50 ms per 5 000 rows with their cascades), however long the history.
 */
export const RESOURCE_HISTORY_DELETE_BATCH = 5_000;

export class ResourcesRepository {
  constructor(
    private readonly db: Db,
    private readonly historyBatch = RESOURCE_HISTORY_DELETE_BATCH,
  ) {}

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

  /**
   * The resource and its history. The history goes first, `historyBatch` requests per statement (their
   * approvals, phone codes and refreshed tokens cascade with them), in the caller's transaction: the
   * resource row's own cascade would delete millions of requests in one statement, past the statement
   * timeout. Instances that cached the resource's credentials are told (same transaction).
   */
  async delete(accountId: AccountId, id: string): Promise<void> {
    // in id order from the last id deleted (access_requests_resource is on resource_id, id): a batch
    // never steps over the index entries of the rows this transaction deleted before it; `= ANY(ARRAY(…))`
    // finds the batch's rows by primary key, whatever the planner estimates (with `IN (SELECT …)` a
    // batch took 0.6 s per 5 000 rows at a million rows, three times the one cascading statement's rate)
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const [batch]: { deleted: number; last: string | null }[] = await this.db.manager().query(
        `WITH gone AS (
           DELETE FROM access_requests WHERE id = ANY(ARRAY(
             SELECT id FROM access_requests WHERE resource_id = $2 AND id > $3 AND account_id = $1 ORDER BY id LIMIT $4))
           RETURNING id)
         SELECT (SELECT count(*)::int FROM gone) AS deleted, (SELECT id FROM gone ORDER BY id DESC LIMIT 1) AS last`,
        [accountId, id, after, this.historyBatch],
      );
      if (batch.deleted < this.historyBatch || batch.last === null) break;
      after = batch.last;
    }
    await this.repo().delete({ accountId, id });
    await announceCredentialsChange(this.db, { kind: 'resource', id });
  }
}
