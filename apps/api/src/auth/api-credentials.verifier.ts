import { randomBytes } from 'node:crypto';
import { ApiKeyRow, ApiKeysRepository, SecretCipher, secretsEqual, SecretPurpose } from '@twofold/persistence';
import { AccountPrincipal, ResourcePrincipal } from './principal';
import { ApiDisabled } from '../http/api-errors';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/** A syntactically possible key: keeps absurd input away from the database. */
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Checks API key and secret pairs: the account's (for the administrator, user, journal and history
 * APIs) and a resource's (for access requests). A pair verified before comes from the cache while no
 * change of its credentials was announced.
 *
 * A wrong secret for a real key and any secret for an unknown key take the same work: the lookup
 * always returns one row (a decoy for an unknown key, carrying a secret encrypted like the real ones
 * at start-up), one secret is decrypted and compared, whatever the key. Otherwise the time of a 401
 * tells an attacker which keys exist.
 */
export class ApiCredentialsVerifier {
  private readonly decoys: Record<'account' | 'resource', Buffer>;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly cipher: SecretCipher,
    private readonly cache: VerifiedCredentialsCache,
  ) {
    const decoy = (purpose: SecretPurpose) => cipher.encrypt(purpose, Buffer.from(randomBytes(32).toString('base64url'), 'utf8'));
    this.decoys = { account: decoy('account.api-secret'), resource: decoy('resource.api-secret') };
  }

  /** null for wrong credentials; throws ApiDisabled (403) for right ones on a disabled API. */
  async verifyAccount(key: string, secret: string): Promise<AccountPrincipal | null> {
    const cached = this.cache.get<AccountPrincipal>('account', key, secret);
    if (cached) return cached;
    if (!PLAUSIBLE_KEY.test(key)) return null;
    const generation = this.cache.generation();
    const row = await this.keys.accountKey(key, this.decoys.account);
    if (!this.matches(row, 'account.api-secret', secret) || !row.accountId) return null;
    if (!row.apiEnabled) throw new ApiDisabled();
    const principal: AccountPrincipal = { kind: 'account', accountId: row.accountId, login: key, identityFormat: row.identityFormat };
    this.cache.remember(key, secret, principal, generation);
    return principal;
  }

  async verifyResource(key: string, secret: string): Promise<ResourcePrincipal | null> {
    const cached = this.cache.get<ResourcePrincipal>('resource', key, secret);
    if (cached) return cached;
    if (!PLAUSIBLE_KEY.test(key)) return null;
    const generation = this.cache.generation();
    const row = await this.keys.resourceKey(key, this.decoys.resource);
    if (!this.matches(row, 'resource.api-secret', secret) || !row.accountId || !row.resourceId) return null;
    const principal: ResourcePrincipal = {
      kind: 'resource',
      accountId: row.accountId,
      resourceId: row.resourceId,
      login: key,
      identityFormat: row.identityFormat,
    };
    this.cache.remember(key, secret, principal, generation);
    return principal;
  }

  /** The same work for a real row and a decoy: decrypt, compare in constant time, then look at `found`. */
  private matches(row: ApiKeyRow, purpose: SecretPurpose, secret: string): boolean {
    const equal = secretsEqual(secret, this.cipher.decryptText(purpose, row.secretEnc));
    return equal && row.found;
  }
}
