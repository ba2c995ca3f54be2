import { AccountId } from '@twofold/domain';
import { IsNull } from 'typeorm';
import { Db } from '../transaction-context';
import { EnrollmentTokenEntity } from '../entities';

export type EnrollmentSubject = { userId: string } | { administratorId: string };

export class EnrollmentTokensRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(EnrollmentTokenEntity);
  }

  insert(
    accountId: AccountId,
    values: { tokenHash: Buffer; subject: EnrollmentSubject; email: string | null; createdAt: Date; expiresAt: Date },
  ): Promise<EnrollmentTokenEntity> {
    const { subject, ...rest } = values;
    return this.repo().save(
      this.repo().create({
        ...rest,
        accountId,
        userId: 'userId' in subject ? subject.userId : null,
        administratorId: 'administratorId' in subject ? subject.administratorId : null,
        usedAt: null,
        revokedAt: null,
        pendingSecretEnc: null,
        failedAttempts: 0,
      }),
    );
  }

  /** A newer link replaces the older ones of the same person. */
  async revokeOpen(accountId: AccountId, subject: EnrollmentSubject, at: Date): Promise<void> {
    await this.repo().update({ accountId, ...subject, usedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: at });
  }

  /** The page's lookup: the token is all the visitor has, so this one is not scoped by account. */
  findByTokenHash(tokenHash: Buffer): Promise<EnrollmentTokenEntity | null> {
    return this.repo().findOneBy({ tokenHash });
  }

  /** Keeps the first secret shown: a reload or a parallel visit shows the same one. */
  async setPendingSecretOnce(accountId: AccountId, id: string, secretEnc: Buffer): Promise<void> {
    await this.repo().update({ accountId, id, pendingSecretEnc: IsNull() }, { pendingSecretEnc: secretEnc });
  }

  /** Counts a wrong code; at the limit the link is revoked. Returns the new count. */
  async recordFailedAttempt(accountId: AccountId, id: string, limit: number, at: Date): Promise<number> {
    const result = await this.repo()
      .createQueryBuilder()
      .update()
      .set({
        failedAttempts: () => 'failed_attempts + 1',
        revokedAt: () => 'CASE WHEN failed_attempts + 1 >= :limit THEN CAST(:at AS timestamptz) ELSE revoked_at END',
      })
      .where('account_id = :accountId AND id = :id', { accountId, id, limit, at })
      .returning('failed_attempts')
      .execute();
    const rows = result.raw as { failed_attempts: number }[];
    return rows[0]?.failed_attempts ?? limit;
  }

  /** Marks the token used unless it already was: true for exactly one of parallel callers. */
  async markUsed(accountId: AccountId, id: string, at: Date): Promise<boolean> {
    const result = await this.repo().update({ accountId, id, usedAt: IsNull(), revokedAt: IsNull() }, { usedAt: at });
    return (result.affected ?? 0) === 1;
  }
}
