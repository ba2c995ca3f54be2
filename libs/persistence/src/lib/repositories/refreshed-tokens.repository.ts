import { AccountId } from '@twofold/domain';
import { Db } from '../transaction-context';

/** The grant a token refreshes: the access request that was Granted, and until when the presented token may be refreshed. */
export interface RefreshableGrant {
  requestId: string;
  userId: string | null;
  identity: string;
  claims: Record<string, unknown> | null;
  bypassed: boolean;
  authenticator: string | null;
  /** the end of the newest token issued for this `jti` (the grant's own token, or the refreshed one) */
  tokenExpiresAt: Date;
}

/** Expired refreshed tokens removed by each refresh, so the table stays the size of the tokens alive. */
const EXPIRED_REMOVED_PER_REFRESH = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What `POST /token/refresh` trusts: a token's `jti` is either the id of an access request this
 * resource had Granted, or the `jti` of a token the service refreshed for it (recorded here).
 */
export class RefreshedTokensRepository {
  constructor(private readonly db: Db) {}

  /**
   * The grant behind `jti` for this resource, or null when the service issued no token of that `jti`
   * to it. `grantTokenSeconds` is the lifetime of the token the grant itself issued.
   */
  async grantOf(accountId: AccountId, resourceId: string, jti: string, grantTokenSeconds: number): Promise<RefreshableGrant | null> {
    if (!UUID.test(jti)) return null;
    const rows: RefreshableGrant[] = await this.db.manager().query(
      `SELECT r.id AS "requestId", r.user_id AS "userId", r.identity, r.claims, r.bypassed, r.authenticator,
              COALESCE(t.expires_at, r.granted_at + make_interval(secs => $4)) AS "tokenExpiresAt"
         FROM access_requests r
         LEFT JOIN refreshed_tokens t ON t.account_id = $1 AND t.jti = $3 AND t.resource_id = $2
        WHERE r.account_id = $1 AND r.resource_id = $2 AND r.status = 'Granted' AND r.granted_at IS NOT NULL
          AND (r.id = $3 OR r.id = t.request_id)
        LIMIT 1`,
      [accountId, resourceId, jti, grantTokenSeconds],
    );
    return rows[0] ?? null;
  }

  /** Records a refreshed token, and removes some of the account's expired ones. */
  async record(
    accountId: AccountId,
    token: { jti: string; resourceId: string; requestId: string; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await this.db.manager().query(
      `WITH expired AS (
         DELETE FROM refreshed_tokens
          WHERE jti IN (SELECT jti FROM refreshed_tokens WHERE account_id = $1 AND expires_at < $5 LIMIT ${EXPIRED_REMOVED_PER_REFRESH})
       )
       INSERT INTO refreshed_tokens (jti, account_id, resource_id, request_id, expires_at) VALUES ($2, $1, $3, $4, $6)`,
      [accountId, token.jti, token.resourceId, token.requestId, now, token.expiresAt],
    );
  }
}
