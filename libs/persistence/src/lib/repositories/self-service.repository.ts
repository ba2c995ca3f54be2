import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';
import { AccessRequestPurpose } from '../entities';

/** The support contact shown on the portal's pages; null fields were never set. */
export interface SupportInfoRow {
  adminName: string | null;
  adminEmail: string | null;
  adminPhone: string | null;
}

/** One showcase tile, as the portal reads it. */
export interface ShowcaseLinkRow {
  resourceId: string;
  url: string;
  title: string;
  image: string;
  openInNewTab: boolean;
}

export interface ShowcaseRow {
  enabled: boolean;
  showcaseLinks: ShowcaseLinkRow[];
}

export type ShowcaseLogoType = 'image/png' | 'image/jpeg' | 'image/webp';

export interface ShowcaseLogoRow {
  name: string;
  contentType: ShowcaseLogoType;
  bytes: Buffer;
}

/** A recovery request of a self-service portal: its user is known when it is made. */
export interface NewRecoveryRequest {
  resourceId: string;
  userId: string;
  identity: string;
  purpose: Exclude<AccessRequestPurpose, 'signIn'>;
  claims: Record<string, unknown>;
  callbackAction: string;
  createdAt: Date;
}

/** A "my factors" page, as its visits read it. */
export interface MyFactorsPageRow {
  id: string;
  accountId: AccountId;
  userId: string;
  browserNonceHash: Buffer | null;
  pendingSecretEnc: Buffer | null;
  checkedUntil: Date | null;
  failedAttempts: number;
  expiresAt: Date;
}

/** The account's settings of the self-service portals, their showcase logos, and their recovery requests. */
export class SelfServiceRepository {
  constructor(private readonly db: Db) {}

  async supportInfo(accountId: AccountId): Promise<SupportInfoRow> {
    const rows: SupportInfoRow[] = await this.db.manager().query(
      `SELECT support_admin_name AS "adminName", support_admin_email AS "adminEmail", support_admin_phone AS "adminPhone"
         FROM self_service_settings WHERE account_id = $1`,
      [accountId],
    );
    return rows[0] ?? { adminName: null, adminEmail: null, adminPhone: null };
  }

  async setSupportInfo(accountId: AccountId, info: SupportInfoRow): Promise<void> {
    await this.db.manager().query(
      `INSERT INTO self_service_settings (account_id, support_admin_name, support_admin_email, support_admin_phone)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id) DO UPDATE
         SET support_admin_name = $2, support_admin_email = $3, support_admin_phone = $4`,
      [accountId, info.adminName, info.adminEmail, info.adminPhone],
    );
  }

  async showcase(accountId: AccountId): Promise<ShowcaseRow> {
    const rows: ShowcaseRow[] = await this.db
      .manager()
      .query(`SELECT showcase_enabled AS enabled, showcase_links AS "showcaseLinks" FROM self_service_settings WHERE account_id = $1`, [
        accountId,
      ]);
    return rows[0] ?? { enabled: false, showcaseLinks: [] };
  }

  async setShowcase(accountId: AccountId, showcase: ShowcaseRow): Promise<void> {
    await this.db.manager().query(
      `INSERT INTO self_service_settings (account_id, showcase_enabled, showcase_links) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (account_id) DO UPDATE SET showcase_enabled = $2, showcase_links = $3::jsonb`,
      [accountId, showcase.enabled, JSON.stringify(showcase.showcaseLinks)],
    );
  }

  async logo(accountId: AccountId, name: string): Promise<ShowcaseLogoRow | null> {
    const rows: ShowcaseLogoRow[] = await this.db
      .manager()
      .query(`SELECT name, content_type AS "contentType", bytes FROM showcase_logos WHERE account_id = $1 AND name = $2`, [
        accountId,
        name,
      ]);
    return rows[0] ?? null;
  }

  async logoNames(accountId: AccountId): Promise<string[]> {
    const rows: { name: string }[] = await this.db
      .manager()
      .query(`SELECT name FROM showcase_logos WHERE account_id = $1 ORDER BY name`, [accountId]);
    return rows.map((row) => row.name);
  }

  /** Adds or replaces the logo of that name; true when it replaced one. */
  async putLogo(accountId: AccountId, logo: ShowcaseLogoRow, now: Date): Promise<boolean> {
    const rows: { replaced: boolean }[] = await this.db.manager().query(
      `INSERT INTO showcase_logos (account_id, name, content_type, bytes, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, name) DO UPDATE SET content_type = $3, bytes = $4, created_at = $5
       RETURNING (xmax <> 0) AS replaced`,
      [accountId, logo.name, logo.contentType, logo.bytes, now],
    );
    return rows[0]?.replaced ?? false;
  }

  /** false when the account has no logo of that name. */
  async deleteLogo(accountId: AccountId, name: string): Promise<boolean> {
    const rows: unknown[] = await this.db
      .manager()
      .query(`DELETE FROM showcase_logos WHERE account_id = $1 AND name = $2 RETURNING name`, [accountId, name]);
    return rows.length > 0;
  }

  /** A recovery request, awaiting its page; returns its id. */
  async insertRecoveryRequest(accountId: AccountId, values: NewRecoveryRequest): Promise<string> {
    const rows: { id: string }[] = await this.db.manager().query(
      `INSERT INTO access_requests (account_id, resource_id, user_id, identity, language, claims, callback_action, callback_target,
                                    channel, purpose, status, failed_attempts, created_at)
       VALUES ($1, $2, $3, $4, 'ru', $5::jsonb, $6, '_self', 'page', $7, 'AwaitingAuthentication', 0, $8)
       RETURNING id`,
      [
        accountId,
        values.resourceId,
        values.userId,
        values.identity,
        JSON.stringify(values.claims),
        values.callbackAction,
        values.purpose,
        values.createdAt,
      ],
    );
    return rows[0].id;
  }

  /** A new page for the user; the user's older pages end (one page a user at a time). */
  async insertMyFactorsPage(
    accountId: AccountId,
    values: { userId: string; tokenHash: Buffer; createdAt: Date; expiresAt: Date },
  ): Promise<void> {
    await this.db.manager().query(`DELETE FROM my_factors_pages WHERE account_id = $1 AND user_id = $2`, [accountId, values.userId]);
    await this.db
      .manager()
      .query(`INSERT INTO my_factors_pages (account_id, user_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
        accountId,
        values.userId,
        values.tokenHash,
        values.createdAt,
        values.expiresAt,
      ]);
  }

  /** The page's lookup: the token is all the visitor has, so this one is not scoped by account. */
  async myFactorsPage(tokenHash: Buffer): Promise<MyFactorsPageRow | null> {
    const rows: MyFactorsPageRow[] = await this.db.manager().query(
      `SELECT id, account_id AS "accountId", user_id AS "userId", browser_nonce_hash AS "browserNonceHash",
              pending_secret_enc AS "pendingSecretEnc", checked_until AS "checkedUntil", failed_attempts AS "failedAttempts",
              expires_at AS "expiresAt"
         FROM my_factors_pages WHERE token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Binds the page to the first browser that opens it; false when another browser was first. */
  async bindMyFactorsPage(accountId: AccountId, id: string, browserNonceHash: Buffer): Promise<boolean> {
    const rows: unknown[] = await this.db.manager().query(
      `UPDATE my_factors_pages SET browser_nonce_hash = $3
        WHERE account_id = $1 AND id = $2 AND browser_nonce_hash IS NULL RETURNING id`,
      [accountId, id, browserNonceHash],
    );
    return rows.length > 0;
  }

  async updateMyFactorsPage(
    accountId: AccountId,
    id: string,
    changes: { pendingSecretEnc?: Buffer | null; checkedUntil?: Date | null; failedAttempts?: number },
  ): Promise<void> {
    const sets: string[] = [];
    const values: unknown[] = [accountId, id];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (changes.pendingSecretEnc !== undefined) set('pending_secret_enc', changes.pendingSecretEnc);
    if (changes.checkedUntil !== undefined) set('checked_until', changes.checkedUntil);
    if (changes.failedAttempts !== undefined) set('failed_attempts', changes.failedAttempts);
    if (sets.length === 0) return;
    await this.db.manager().query(`UPDATE my_factors_pages SET ${sets.join(', ')} WHERE account_id = $1 AND id = $2`, values);
  }

  async deleteMyFactorsPage(accountId: AccountId, id: string): Promise<void> {
    await this.db.manager().query(`DELETE FROM my_factors_pages WHERE account_id = $1 AND id = $2`, [accountId, id]);
  }
}
