import { AccountId, StandbyCodeKind } from '@twofold/domain';
import { Db } from '../transaction-context';

/** A standby code as stored: its salted hash, never the code. */
export interface StandbyCodeRow {
  id: string;
  kind: StandbyCodeKind;
  salt: Buffer;
  codeHash: Buffer;
  usesLeft: number;
  expiresAt: Date | null;
}

export interface NewStandbyCode {
  salt: Buffer;
  codeHash: Buffer;
  usesLeft: number;
  expiresAt: Date | null;
}

interface StandbyCodeRecord {
  id: string;
  kind: StandbyCodeKind;
  salt: Buffer;
  code_hash: Buffer;
  uses_left: number;
  expires_at: Date | null;
}

/** Live: uses left and not expired (a recovery code has no expiry). */
const LIVE = `uses_left > 0 AND (expires_at IS NULL OR expires_at > $3)`;

/** A user's recovery and helpdesk bypass codes (libs/domain standby-codes.ts). */
export class StandbyCodesRepository {
  constructor(private readonly db: Db) {}

  /** Adds codes of one kind for the user, in one statement. */
  async insert(
    accountId: AccountId,
    userId: string,
    kind: StandbyCodeKind,
    codes: readonly NewStandbyCode[],
    createdBy: string,
    now: Date,
  ): Promise<void> {
    await this.db.manager().query(
      `INSERT INTO standby_codes (account_id, user_id, kind, salt, code_hash, uses_left, expires_at, created_by, created_at)
       SELECT $1, $2, $3, c.salt, c.code_hash, c.uses_left, c.expires_at, $4, $5
       FROM unnest($6::bytea[], $7::bytea[], $8::int[], $9::timestamptz[]) AS c(salt, code_hash, uses_left, expires_at)`,
      [
        accountId,
        userId,
        kind,
        createdBy,
        now,
        codes.map((code) => code.salt),
        codes.map((code) => code.codeHash),
        codes.map((code) => code.usesLeft),
        codes.map((code) => code.expiresAt),
      ],
    );
  }

  /** Voids every code of that kind the user has (regenerating recovery codes). */
  async deleteKind(accountId: AccountId, userId: string, kind: StandbyCodeKind): Promise<void> {
    await this.db
      .manager()
      .query(`DELETE FROM standby_codes WHERE account_id = $1 AND user_id = $2 AND kind = $3`, [accountId, userId, kind]);
  }

  /** The user's codes, spent and expired ones too (a spent code sent again is a replay, not a guess). */
  async all(accountId: AccountId, userId: string): Promise<StandbyCodeRow[]> {
    const records: StandbyCodeRecord[] = await this.db
      .manager()
      .query(
        `SELECT id, kind, salt, code_hash, uses_left, expires_at FROM standby_codes WHERE account_id = $1 AND user_id = $2 ORDER BY created_at, id`,
        [accountId, userId],
      );
    return records.map(rowOf);
  }

  /** How many codes the user can still use at `now`, per kind. */
  async countLive(accountId: AccountId, userId: string, now: Date): Promise<Record<StandbyCodeKind, number>> {
    const records: { kind: StandbyCodeKind; n: number }[] = await this.db
      .manager()
      .query(`SELECT kind, count(*)::int AS n FROM standby_codes WHERE account_id = $1 AND user_id = $2 AND ${LIVE} GROUP BY kind`, [
        accountId,
        userId,
        now,
      ]);
    const counts: Record<StandbyCodeKind, number> = { BypassCode: 0, RecoveryCode: 0 };
    for (const record of records) counts[record.kind] = record.n;
    return counts;
  }

  /** How many codes the user has: `live`, usable at `now`; `stored`, spent and expired ones too. One statement. */
  async countOfUser(accountId: AccountId, userId: string, now: Date): Promise<{ live: number; stored: number }> {
    const [record]: { live: number; stored: number }[] = await this.db
      .manager()
      .query(
        `SELECT count(*) FILTER (WHERE ${LIVE})::int AS live, count(*)::int AS stored FROM standby_codes WHERE account_id = $1 AND user_id = $2`,
        [accountId, userId, now],
      );
    return record;
  }

  /**
   * Spends one use of the code: a conditional UPDATE, so of parallel attempts (any API process) no
   * more win than the code has uses. The uses left after it, or null when it could not be spent.
   */
  async spend(accountId: AccountId, id: string, now: Date): Promise<number | null> {
    const [records]: [{ uses_left: number }[], number] = await this.db
      .manager()
      .query(`UPDATE standby_codes SET uses_left = uses_left - 1 WHERE account_id = $1 AND id = $2 AND ${LIVE} RETURNING uses_left`, [
        accountId,
        id,
        now,
      ]);
    return records.length === 1 ? records[0].uses_left : null;
  }
}

function rowOf(record: StandbyCodeRecord): StandbyCodeRow {
  return {
    id: record.id,
    kind: record.kind,
    salt: record.salt,
    codeHash: record.code_hash,
    usesLeft: record.uses_left,
    expiresAt: record.expires_at,
  };
}
