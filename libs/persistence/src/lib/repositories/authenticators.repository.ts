import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';
import { AuthenticatorEntity, AuthenticatorKind } from '../entities';

export type NewAuthenticator = Pick<
  AuthenticatorEntity,
  'userId' | 'kind' | 'name' | 'secretEnc' | 'privateIdEnc' | 'algorithm' | 'digits' | 'hotpCounter' | 'lastTimeStep' | 'createdAt'
> &
  Partial<Pick<AuthenticatorEntity, 'disabled'>>;

/**
 * A code's TOTP time step or HOTP counter, to be spent on every row of the user that holds its secret
 * (`ids`): the replay guard's state belongs to the secret, not to the row.
 */
export type OtpSpend =
  | { kind: 'totp'; ids: readonly string[]; timeStep: number }
  | { kind: 'hotp'; ids: readonly string[]; counter: number };

/**
 * The replay guard: the conditional UPDATE that only one of any number of parallel callers (in any API
 * process) can win for a given time step or counter. It changes every row of `spend.ids` or, when a
 * step at or after it (a counter past it) was accepted before, not all of them: the spend is won only
 * when it changed `spend.ids.length` rows. Its parameters are appended to `params`, whose `$1` is the
 * account; a grant runs it as a CTE of its own statement (AccessRequestsRepository), saving a round trip.
 * `/ra`'s grant runs a frozen copy of it inside the function `access_request_granted_spending` (migration
 * 1766900000000): a change here needs a migration that replaces that function too.
 */
export function otpSpendUpdate(spend: OtpSpend, params: unknown[]): string {
  const ids = `$${params.push(spend.ids)}::uuid[]`;
  if (spend.kind === 'totp') {
    const step = `$${params.push(spend.timeStep)}::bigint`;
    return `UPDATE authenticators SET last_time_step = ${step}
             WHERE account_id = $1 AND id = ANY(${ids}) AND (last_time_step IS NULL OR last_time_step < ${step})`;
  }
  const counter = `$${params.push(spend.counter)}::bigint`;
  return `UPDATE authenticators SET hotp_counter = ${counter} + 1 WHERE account_id = $1 AND id = ANY(${ids}) AND hotp_counter <= ${counter}`;
}

/**
 * Users' authenticators. The accept* methods and `spend` are the replay guard (otpSpendUpdate),
 * written by hand, as every statement of a sign-in (TypeORM's query building showed in the
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
   * Spends a code's time step or counter once (otpSpendUpdate), on one authenticator or every row of
   * the user that holds the same secret: a TOTP step only when no step at or after it was spent before,
   * an HOTP counter by moving the stored next-expected counter past it unless it is already past it.
   * False when another request got there first. (A sign-in spends in its grant's own statement:
   * AccessRequestsRepository.grantSpending.)
   */
  async spend(accountId: AccountId, spend: OtpSpend): Promise<boolean> {
    const params: unknown[] = [accountId];
    const [, affected]: [unknown, number] = await this.db.manager().query(otpSpendUpdate(spend, params), params);
    return affected === spend.ids.length;
  }
}
