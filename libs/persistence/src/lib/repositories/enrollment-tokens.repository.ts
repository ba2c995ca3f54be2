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
    accountId: string,
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
      }),
    );
  }

  /** A newer link replaces the older ones of the same person. */
  async revokeOpen(accountId: string, subject: EnrollmentSubject, at: Date): Promise<void> {
    await this.repo().update({ accountId, ...subject, usedAt: IsNull(), revokedAt: IsNull() }, { revokedAt: at });
  }

  /** The page's lookup: the token is all the visitor has, so this one is not scoped by account. */
  findByTokenHash(tokenHash: Buffer): Promise<EnrollmentTokenEntity | null> {
    return this.repo().findOneBy({ tokenHash });
  }

  /** Marks the token used unless it already was: true for exactly one of parallel callers. */
  async markUsed(accountId: string, id: string, at: Date): Promise<boolean> {
    const result = await this.repo().update({ accountId, id, usedAt: IsNull(), revokedAt: IsNull() }, { usedAt: at });
    return (result.affected ?? 0) === 1;
  }
}
