import { Injectable } from '@nestjs/common';
import { AccountId, BREAKER_WINDOW_MINUTES, PhoneCodeHistory, PhoneCodeMethod } from '@twofold/domain';
import { Db } from '@twofold/persistence';

/** An open code of a request, as its check reads it. */
export interface OpenPhoneCode {
  id: string;
  method: PhoneCodeMethod;
  codeHash: Buffer;
}

/**
 * The codes sent to users' phones (one row per code the gateway took), each bound to its access
 * request; every query is scoped to the account.
 */
@Injectable()
export class PhoneCodesRepository {
  constructor(private readonly db: Db) {}

  /** Records a code sent for a request; the request's earlier open code is voided (one open code per request). */
  async record(
    accountId: AccountId,
    code: {
      accessRequestId: string;
      userId: string;
      method: PhoneCodeMethod;
      phone: string;
      codeHash: Buffer;
      createdAt: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    await this.db
      .manager()
      .query(`UPDATE phone_codes SET voided = true WHERE account_id = $1 AND access_request_id = $2 AND used_at IS NULL AND NOT voided`, [
        accountId,
        code.accessRequestId,
      ]);
    await this.db.manager().query(
      `INSERT INTO phone_codes (account_id, access_request_id, user_id, method, phone, code_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [accountId, code.accessRequestId, code.userId, code.method, code.phone, code.codeHash, code.createdAt, code.expiresAt],
    );
  }

  /** The request's open code: not used, not replaced, not expired at `now`; null when none. */
  async openOf(accountId: AccountId, accessRequestId: string, now: Date): Promise<OpenPhoneCode | null> {
    const rows: { id: string; method: PhoneCodeMethod; code_hash: Buffer }[] = await this.db.manager().query(
      `SELECT id, method, code_hash FROM phone_codes
        WHERE account_id = $1 AND access_request_id = $2 AND used_at IS NULL AND NOT voided AND expires_at > $3
        ORDER BY created_at DESC LIMIT 1`,
      [accountId, accessRequestId, now],
    );
    const row = rows[0];
    return row ? { id: row.id, method: row.method, codeHash: row.code_hash } : null;
  }

  /** Whether a code was ever sent for the request (open, spent or expired): a code entered on it is checked as the phone's first. */
  async sentFor(accountId: AccountId, accessRequestId: string): Promise<boolean> {
    const rows: unknown[] = await this.db
      .manager()
      .query(`SELECT 1 FROM phone_codes WHERE account_id = $1 AND access_request_id = $2 LIMIT 1`, [accountId, accessRequestId]);
    return rows.length > 0;
  }

  /** Spends a code: true for the one attempt that spent it. */
  async use(accountId: AccountId, id: string, now: Date): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.db
      .manager()
      .query(`UPDATE phone_codes SET used_at = $3 WHERE account_id = $1 AND id = $2 AND used_at IS NULL AND NOT voided`, [
        accountId,
        id,
        now,
      ]);
    return affected === 1;
  }

  /**
   * What the abuse limits count: codes sent to the user (last one, last hour), by the account (last
   * day), and the account's codes to `range` in the breaker's window whose five minutes are over
   * (`range` is matched as a prefix of the number; the account-and-time index narrows the rows).
   */
  async historyOf(accountId: AccountId, userId: string, now: Date, range: string): Promise<PhoneCodeHistory> {
    const rows: { last_sent: Date | null; user_hour: string; account_day: string; range_settled: string; range_entered: string }[] =
      await this.db.manager().query(
        `SELECT (SELECT max(created_at) FROM phone_codes WHERE account_id = $1 AND user_id = $2) AS last_sent,
                (SELECT count(*) FROM phone_codes WHERE account_id = $1 AND user_id = $2 AND created_at > $3::timestamptz - interval '1 hour') AS user_hour,
                (SELECT count(*) FROM phone_codes WHERE account_id = $1 AND created_at > $3::timestamptz - interval '1 day') AS account_day,
                count(*) AS range_settled, count(used_at) AS range_entered
           FROM phone_codes
          WHERE account_id = $1 AND created_at > $3::timestamptz - make_interval(mins => $5) AND expires_at <= $3
            AND left(phone, length($4)) = $4`,
        [accountId, userId, now, range, BREAKER_WINDOW_MINUTES],
      );
    const row = rows[0];
    return {
      lastSentToUser: row.last_sent,
      sentToUserLastHour: Number(row.user_hour),
      sentByAccountLastDay: Number(row.account_day),
      range: { settled: Number(row.range_settled), entered: Number(row.range_entered) },
    };
  }

  /** The account's allow-list of destination prefixes; empty: any. */
  async allowedPrefixes(accountId: AccountId): Promise<string[]> {
    const rows: { allowed_prefixes: string[] }[] = await this.db
      .manager()
      .query(`SELECT allowed_prefixes FROM phone_code_policies WHERE account_id = $1`, [accountId]);
    return rows[0]?.allowed_prefixes ?? [];
  }

  async setAllowedPrefixes(accountId: AccountId, prefixes: readonly string[], now: Date): Promise<void> {
    await this.db.manager().query(
      `INSERT INTO phone_code_policies (account_id, allowed_prefixes, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET allowed_prefixes = EXCLUDED.allowed_prefixes, updated_at = EXCLUDED.updated_at`,
      [accountId, prefixes, now],
    );
  }

  /** The account's own gateway of a method, encrypted; null: the service-wide default. */
  async gatewayOf(accountId: AccountId, method: PhoneCodeMethod): Promise<Buffer | null> {
    const rows: { settings_enc: Buffer }[] = await this.db
      .manager()
      .query(`SELECT settings_enc FROM phone_gateways WHERE account_id = $1 AND method = $2`, [accountId, method]);
    return rows[0]?.settings_enc ?? null;
  }

  async setGateway(accountId: AccountId, method: PhoneCodeMethod, settingsEnc: Buffer | null, now: Date): Promise<void> {
    if (!settingsEnc) {
      await this.db.manager().query(`DELETE FROM phone_gateways WHERE account_id = $1 AND method = $2`, [accountId, method]);
      return;
    }
    await this.db.manager().query(
      `INSERT INTO phone_gateways (account_id, method, settings_enc, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, method) DO UPDATE SET settings_enc = EXCLUDED.settings_enc, updated_at = EXCLUDED.updated_at`,
      [accountId, method, settingsEnc, now],
    );
  }
}
