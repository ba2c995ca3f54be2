import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';
import { AuthenticatorEntity, AuthenticatorKind } from '../entities';

export type NewAuthenticator = Pick<
  AuthenticatorEntity,
  'userId' | 'kind' | 'name' | 'secretEnc' | 'privateIdEnc' | 'algorithm' | 'digits' | 'hotpCounter' | 'lastTimeStep' | 'createdAt'
> &
  Partial<Pick<AuthenticatorEntity, 'disabled'>>;

/**
 * Users' authenticators. The accept* methods are the replay guard: a conditional UPDATE that only one
 * of any number of parallel callers (in any API process) can win for a given time step or counter.
 * They are written by hand, as every statement of a sign-in (TypeORM's query building showed in the
 * profile of `/ra`).
 */
export class AuthenticatorsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AuthenticatorEntity);
  }

  insert(accountId: AccountId, values: NewAuthenticator): Promise<AuthenticatorEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId }));
  }

  listByUser(accountId: AccountId, userId: string): Promise<AuthenticatorEntity[]> {
    return this.repo().find({ where: { accountId, userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findOfUser(accountId: AccountId, userId: string, id: string): Promise<AuthenticatorEntity | null> {
    return this.repo().findOneBy({ accountId, userId, id });
  }

  /** The row locked for the rest of the transaction: a move or copy reads a state nobody changes meanwhile. */
  findOfUserForUpdate(accountId: AccountId, userId: string, id: string): Promise<AuthenticatorEntity | null> {
    return this.repo()
      .createQueryBuilder('a')
      .setLock('pessimistic_write')
      .where('a.account_id = :accountId AND a.user_id = :userId AND a.id = :id', { accountId, userId, id })
      .getOne();
  }

  async rename(accountId: AccountId, id: string, name: string): Promise<void> {
    await this.repo().update({ accountId, id }, { name });
  }

  async setDisabled(accountId: AccountId, id: string, disabled: boolean): Promise<void> {
    await this.repo().update({ accountId, id }, { disabled });
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    await this.repo().delete({ accountId, id });
  }

  /** Removes every authenticator of one kind of a user; returns the removed rows. */
  async deleteKind(accountId: AccountId, userId: string, kind: AuthenticatorKind): Promise<AuthenticatorEntity[]> {
    const rows = await this.repo().findBy({ accountId, userId, kind });
    if (rows.length > 0) await this.repo().delete({ accountId, userId, kind });
    return rows;
  }

  async moveToUser(accountId: AccountId, id: string, targetUserId: string): Promise<void> {
    await this.repo().update({ accountId, id }, { userId: targetUserId });
  }

  /**
   * Accepts a TOTP time step once: succeeds only when no step at or after it was accepted before for
   * these authenticators (one, or every row of the user that holds the same secret: the step is spent
   * on all of them). Returns false when another request got there first.
   */
  async acceptTotpStep(accountId: AccountId, ids: string | readonly string[], timeStep: number): Promise<boolean> {
    const all = typeof ids === 'string' ? [ids] : ids;
    const [, affected]: [unknown, number] = await this.db.manager().query(
      `UPDATE authenticators SET last_time_step = $3
        WHERE account_id = $1 AND id = ANY($2::uuid[]) AND (last_time_step IS NULL OR last_time_step < $3)`,
      [accountId, all, timeStep],
    );
    return affected === all.length;
  }

  /**
   * A resync's outcome: the HOTP counter moved to `hotpCounter`, or a TOTP token's drift stored with
   * its last accepted step; conditional on the state read, so a code accepted meanwhile is not undone.
   */
  async resync(
    accountId: AccountId,
    id: string,
    seen: Pick<AuthenticatorEntity, 'hotpCounter' | 'lastTimeStep'>,
    to: { hotpCounter: number } | { driftSteps: number; lastTimeStep: number },
  ): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.db.manager().query(
      'hotpCounter' in to
        ? `UPDATE authenticators SET hotp_counter = $3 WHERE account_id = $1 AND id = $2 AND hotp_counter IS NOT DISTINCT FROM $4::bigint`
        : `UPDATE authenticators SET totp_drift_steps = $3, last_time_step = $4
            WHERE account_id = $1 AND id = $2 AND last_time_step IS NOT DISTINCT FROM $5::bigint`,
      'hotpCounter' in to
        ? [accountId, id, to.hotpCounter, seen.hotpCounter]
        : [accountId, id, to.driftSteps, to.lastTimeStep, seen.lastTimeStep],
    );
    return affected === 1;
  }

  /**
   * Accepts an HOTP counter once: moves the stored next-expected counter past `counter`, only if it
   * is not already past it, on one authenticator or every row of the user holding the same secret.
   * Returns false when another request got there first.
   */
  async acceptHotpCounter(accountId: AccountId, ids: string | readonly string[], counter: number): Promise<boolean> {
    const all = typeof ids === 'string' ? [ids] : ids;
    const [, affected]: [unknown, number] = await this.db
      .manager()
      .query(
        'UPDATE authenticators SET hotp_counter = $3::bigint + 1 WHERE account_id = $1 AND id = ANY($2::uuid[]) AND hotp_counter <= $3',
        [accountId, all, counter],
      );
    return affected === all.length;
  }
}
