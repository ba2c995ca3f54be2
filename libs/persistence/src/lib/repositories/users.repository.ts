import { Page } from '@twofold/domain';
import { In } from 'typeorm';
import { Db } from '../transaction-context';
import { AuthenticatorEntity, CustomFieldEntity, GroupEntity, PhoneEntity, UserEntity, UserGroupEntity, UserSource } from '../entities';

export interface NewUser {
  identity: string;
  name: string | null;
  email: string | null;
  source: UserSource;
  createdAt: Date;
}

export type UserChanges = Partial<Pick<UserEntity, 'identity' | 'name' | 'email' | 'isLocked' | 'lastLogin'>>;

/** What a user object shows beside the user row, for a batch of users read in four queries. */
export interface UserDetails {
  /** names of the user's groups, the system group not included (every user is in it) */
  groups: string[];
  authenticatorKinds: string[];
  phones: string[];
  customFields: { name: string; value: string }[];
}

/**
 * Users with their groups, phones and custom fields. Every method takes the account first; the
 * unique index users_account_identity (account, lower(identity)) is what keeps identities unique.
 */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(UserEntity);
  }

  insert(accountId: string, values: NewUser): Promise<UserEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId, isLocked: false, lastLogin: null }));
  }

  count(accountId: string): Promise<number> {
    return this.repo().countBy({ accountId });
  }

  findById(accountId: string, id: string): Promise<UserEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  /** The row locked for the rest of the transaction: changes of one user's sets queue up. */
  findByIdForUpdate(accountId: string, id: string): Promise<UserEntity | null> {
    return this.repo()
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.account_id = :accountId AND u.id = :id', { accountId, id })
      .getOne();
  }

  findByIdentity(accountId: string, identity: string): Promise<UserEntity | null> {
    return this.repo()
      .createQueryBuilder('u')
      .where('u.account_id = :accountId', { accountId })
      .andWhere('lower(u.identity) = lower(:identity)', { identity })
      .getOne();
  }

  /**
   * Whether a request for this identity may go to the access page (CONTRACT §8.1): the user exists,
   * or a licence is free for the page to register them. One round trip; the page's registration
   * counts again under the account lock, so this is the early answer, not the guarantee.
   */
  async knownOrRegistrable(accountId: string, identity: string): Promise<boolean> {
    const rows: { allowed: boolean }[] = await this.db.manager().query(
      `SELECT EXISTS (SELECT 1 FROM users WHERE account_id = $1 AND lower(identity) = lower($2))
           OR (SELECT count(*) FROM users WHERE account_id = $1) < (SELECT licenses FROM accounts WHERE id = $1) AS allowed`,
      [accountId, identity],
    );
    return rows[0]?.allowed === true;
  }

  /** Users in creation order; with `identity`, only that login (case-insensitively). */
  list(accountId: string, filter: { identity?: string }, page: Page): Promise<[UserEntity[], number]> {
    const query = this.repo().createQueryBuilder('u').where('u.account_id = :accountId', { accountId });
    if (filter.identity !== undefined) query.andWhere('lower(u.identity) = lower(:identity)', { identity: filter.identity });
    return query.orderBy('u.created_at', 'ASC').addOrderBy('u.id', 'ASC').skip(page.offset).take(page.limit).getManyAndCount();
  }

  async update(accountId: string, id: string, changes: UserChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.repo().update({ accountId, id }, changes);
  }

  async delete(accountId: string, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }

  /** Groups, authenticator kinds, phones and custom fields of many users at once. */
  async detailsOf(accountId: string, userIds: readonly string[]): Promise<Map<string, UserDetails>> {
    const details = new Map<string, UserDetails>(userIds.map((id) => [id, { groups: [], authenticatorKinds: [], phones: [], customFields: [] }]));
    if (userIds.length === 0) return details;
    const manager = this.db.manager();
    const ids = [...userIds];
    // one after another: inside a transaction they share one connection
    const groups = await manager
      .createQueryBuilder(UserGroupEntity, 'ug')
      .innerJoin(GroupEntity, 'g', 'g.id = ug.group_id')
      .select(['ug.user_id AS user_id', 'g.name AS name'])
      .where('ug.account_id = :accountId AND ug.user_id IN (:...ids)', { accountId, ids })
      .orderBy('lower(g.name)', 'ASC')
      .getRawMany<{ user_id: string; name: string }>();
    const kinds = await manager
      .createQueryBuilder(AuthenticatorEntity, 'a')
      .select(['a.user_id AS user_id', 'a.kind AS kind'])
      .distinct(true)
      .where('a.account_id = :accountId AND a.user_id IN (:...ids)', { accountId, ids })
      .getRawMany<{ user_id: string; kind: string }>();
    const phones = await manager.getRepository(PhoneEntity).find({ where: { accountId, userId: In(ids) }, order: { number: 'ASC' } });
    const fields = await manager.getRepository(CustomFieldEntity).find({ where: { accountId, userId: In(ids) }, order: { name: 'ASC' } });
    for (const row of groups) details.get(row.user_id)?.groups.push(row.name);
    for (const row of kinds) details.get(row.user_id)?.authenticatorKinds.push(row.kind);
    for (const phone of phones) details.get(phone.userId)?.phones.push(phone.number);
    for (const field of fields) details.get(field.userId)?.customFields.push({ name: field.name, value: field.value });
    return details;
  }

  async addToGroups(accountId: string, userId: string, groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.db
      .manager()
      .createQueryBuilder()
      .insert()
      .into(UserGroupEntity)
      .values(groupIds.map((groupId) => ({ accountId, userId, groupId })))
      .orIgnore()
      .execute();
  }

  async removeFromGroups(accountId: string, userId: string, groupIds: readonly string[]): Promise<void> {
    if (groupIds.length === 0) return;
    await this.db.manager().getRepository(UserGroupEntity).delete({ accountId, userId, groupId: In([...groupIds]) });
  }

  /**
   * The user's stored phone numbers, in number order. They are also the user's SMS method (CONTRACT
   * §6: a user with a phone lists `Sms`), which the authenticator API shows and removes by phone id.
   */
  phoneRowsOf(accountId: string, userId: string): Promise<PhoneEntity[]> {
    return this.db.manager().getRepository(PhoneEntity).find({ where: { accountId, userId }, order: { number: 'ASC', id: 'ASC' } });
  }

  async phonesOf(accountId: string, userId: string): Promise<string[]> {
    return (await this.phoneRowsOf(accountId, userId)).map((row) => row.number);
  }

  /** Removes one phone of the user; false when the user has no phone of that id. */
  async deletePhone(accountId: string, userId: string, id: string): Promise<boolean> {
    const result = await this.db.manager().getRepository(PhoneEntity).delete({ accountId, userId, id });
    return (result.affected ?? 0) > 0;
  }

  /** Removes every phone of the user; returns the removed rows. */
  async deleteAllPhones(accountId: string, userId: string): Promise<PhoneEntity[]> {
    const rows = await this.phoneRowsOf(accountId, userId);
    if (rows.length > 0) await this.db.manager().getRepository(PhoneEntity).delete({ accountId, userId });
    return rows;
  }

  async changePhones(accountId: string, userId: string, change: { add: readonly string[]; remove: readonly string[] }, at: Date): Promise<void> {
    const phones = this.db.manager().getRepository(PhoneEntity);
    if (change.remove.length > 0) await phones.delete({ accountId, userId, number: In([...change.remove]) });
    if (change.add.length > 0) await phones.insert(change.add.map((number) => ({ accountId, userId, number, createdAt: at })));
  }

  async customFieldsOf(accountId: string, userId: string): Promise<{ name: string; value: string }[]> {
    const rows = await this.db.manager().getRepository(CustomFieldEntity).find({ where: { accountId, userId }, order: { name: 'ASC' } });
    return rows.map((row) => ({ name: row.name, value: row.value }));
  }

  /** The user's fields become exactly `fields` (callers hold the user row lock). */
  async replaceCustomFields(accountId: string, userId: string, fields: readonly { name: string; value: string }[]): Promise<void> {
    const repo = this.db.manager().getRepository(CustomFieldEntity);
    await repo.delete({ accountId, userId });
    if (fields.length > 0) await repo.insert(fields.map((field) => ({ accountId, userId, name: field.name, value: field.value })));
  }
}
