import { IsNull, LessThan } from 'typeorm';
import { TokenSigningKeyEntity } from '../entities';
import { NewTokenSigningKey } from '../token-signing-key';
import { Db } from '../transaction-context';

/** any constant shared by every Twofold process: serialises rotations of the signing key */
const ROTATION_LOCK_ID = 7_276_365_001;

/**
 * The service's RSA signing keys. The one repository without an account first: these
 * keys belong to the service, not to an account.
 */
export class TokenSigningKeysRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(TokenSigningKeyEntity);
  }

  findActive(): Promise<TokenSigningKeyEntity | null> {
    return this.repo().findOneBy({ retiredAt: IsNull() });
  }

  /** The active key and the keys retired after `retiredAfter`: what the JWKS may publish. Active first, then the latest retired. */
  listPublishable(retiredAfter: Date): Promise<TokenSigningKeyEntity[]> {
    return this.repo()
      .createQueryBuilder('k')
      .where('k.retired_at IS NULL OR k.retired_at > :retiredAfter', { retiredAfter })
      .orderBy('k.retired_at', 'DESC', 'NULLS FIRST')
      .addOrderBy('k.created_at', 'DESC')
      .addOrderBy('k.kid', 'ASC')
      .getMany();
  }

  /**
   * The first key, unless a key is active already: true when this one was inserted. Two processes
   * starting at once both try; the partial unique index on the active key lets one insert win, the
   * other's insert does nothing (no error, no aborted transaction).
   */
  async insertIfNoneActive(key: NewTokenSigningKey): Promise<boolean> {
    const result = await this.repo()
      .createQueryBuilder()
      .insert()
      .values({ ...key, retiredAt: null })
      .orIgnore()
      .returning('kid')
      .execute();
    return (result.raw as unknown[]).length === 1;
  }

  /**
   * Makes `key` the newest key, in one transaction; rotations of two operators at once run one after
   * the other. The key is published at once and signs from `signsFrom`: the key signing until then
   * is retired at that moment (a retirement in the future). An emergency rotation (`signsFrom` not
   * after `at`) retires at `at` every key still signing, those of earlier rotations published ahead
   * included. Keys retired before `forgetBefore` (no token they signed is valid any more) are deleted
   * with their private halves. Returns the kid retired (the one without a retirement before).
   */
  rotate(key: NewTokenSigningKey, at: Date, forgetBefore: Date, signsFrom: Date = at): Promise<{ retired: string | null }> {
    return this.db.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [ROTATION_LOCK_ID]);
      const repo = manager.getRepository(TokenSigningKeyEntity);
      const active = await repo.findOneBy({ retiredAt: IsNull() });
      if (signsFrom.getTime() <= at.getTime()) {
        await manager.query('UPDATE token_signing_keys SET retired_at = $1 WHERE retired_at IS NULL OR retired_at > $1', [at]);
      } else if (active) {
        await repo.update({ kid: active.kid }, { retiredAt: signsFrom });
      }
      await repo.insert({ ...key, retiredAt: null });
      await repo.delete({ retiredAt: LessThan(forgetBefore) });
      return { retired: active?.kid ?? null };
    });
  }
}
