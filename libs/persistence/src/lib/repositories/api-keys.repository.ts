import { AccountId, IdentityFormat } from '@twofold/domain';
import { Db } from '../transaction-context';

/**
 * What a Basic-auth check reads of an API key: always one row. A key that exists gives its owner's
 * row; an unknown key gives the decoy row made of the `decoySecretEnc` the caller passes (a secret
 * encrypted like the real ones), so that both paths parse one row and decrypt one secret, and the time
 * an answer takes does not tell which keys exist. Both branches probe the key's index once.
 */
export interface ApiKeyRow {
  /** false for the decoy row of an unknown key (or an account whose API secret was never made) */
  found: boolean;
  secretEnc: Buffer;
}

export interface AccountKeyRow extends ApiKeyRow {
  accountId: AccountId | null;
  apiEnabled: boolean;
  identityFormat: IdentityFormat;
}

export interface ResourceKeyRow extends ApiKeyRow {
  accountId: AccountId | null;
  resourceId: string | null;
  identityFormat: IdentityFormat;
}

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  async accountKey(apiKey: string, decoySecretEnc: Buffer): Promise<AccountKeyRow> {
    const rows: AccountKeyRow[] = await this.db.manager().query(
      `SELECT api_secret_enc IS NOT NULL AS found, id AS "accountId", COALESCE(api_secret_enc, $2) AS "secretEnc",
              api_enabled AS "apiEnabled", identity_format AS "identityFormat"
         FROM accounts WHERE api_key = $1
       UNION ALL
       SELECT false, NULL, $2, false, 'AsIs' WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE api_key = $1)`,
      [apiKey, decoySecretEnc],
    );
    return rows[0];
  }

  async resourceKey(apiKey: string, decoySecretEnc: Buffer): Promise<ResourceKeyRow> {
    const rows: ResourceKeyRow[] = await this.db.manager().query(
      `SELECT true AS found, r.id AS "resourceId", r.account_id AS "accountId", r.api_secret_enc AS "secretEnc",
              a.identity_format AS "identityFormat"
         FROM resources r JOIN accounts a ON a.id = r.account_id WHERE r.api_key = $1
       UNION ALL
       SELECT false, NULL, NULL, $2, 'AsIs' WHERE NOT EXISTS (SELECT 1 FROM resources WHERE api_key = $1)`,
      [apiKey, decoySecretEnc],
    );
    return rows[0];
  }
}
