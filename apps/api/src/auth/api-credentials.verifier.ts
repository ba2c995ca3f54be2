import { AccountsRepository, ResourcesRepository, SecretCipher, secretsEqual } from '@twofold/persistence';
import { AccountPrincipal, ResourcePrincipal } from './principal';
import { ApiDisabled } from '../http/api-errors';
import { VerifiedCredentialsCache } from './verified-credentials.cache';

/** A syntactically possible key: keeps absurd input away from the database. */
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{1,128}$/;
/** compared against when a key is unknown, so the time taken does not tell known keys apart */
const UNKNOWN_KEY_SECRET = 'x'.repeat(43);

/**
 * Checks API key and secret pairs: the account's (SPEC.md Authentication 1-2) and a resource's (3).
 * A pair verified before comes from the cache while no change of its credentials was announced.
 */
export class ApiCredentialsVerifier {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly resources: ResourcesRepository,
    private readonly cipher: SecretCipher,
    private readonly cache: VerifiedCredentialsCache,
  ) {}

  /** null for wrong credentials; throws ApiDisabled (403) for right ones on a disabled API. */
  async verifyAccount(key: string, secret: string): Promise<AccountPrincipal | null> {
    const cached = this.cache.get<AccountPrincipal>('account', key, secret);
    if (cached) return cached;
    const generation = this.cache.generation();
    const account = PLAUSIBLE_KEY.test(key) ? await this.accounts.findByApiKey(key) : null;
    const stored = account?.apiSecretEnc ? this.cipher.decryptText('account.api-secret', account.apiSecretEnc) : UNKNOWN_KEY_SECRET;
    const matches = secretsEqual(secret, stored);
    if (!account || !account.apiSecretEnc || !matches) return null;
    if (!account.apiEnabled) throw new ApiDisabled();
    const principal: AccountPrincipal = { kind: 'account', accountId: account.id, login: key, identityFormat: account.identityFormat };
    this.cache.remember(key, secret, principal, generation);
    return principal;
  }

  async verifyResource(key: string, secret: string): Promise<ResourcePrincipal | null> {
    const cached = this.cache.get<ResourcePrincipal>('resource', key, secret);
    if (cached) return cached;
    const generation = this.cache.generation();
    const found = PLAUSIBLE_KEY.test(key) ? await this.resources.findByApiKeyWithAccount(key) : null;
    const stored = found ? this.cipher.decryptText('resource.api-secret', found.resource.apiSecretEnc) : UNKNOWN_KEY_SECRET;
    const matches = secretsEqual(secret, stored);
    if (!found || !matches) return null;
    const { resource, identityFormat } = found;
    const principal: ResourcePrincipal = {
      kind: 'resource',
      accountId: resource.accountId,
      resourceId: resource.id,
      login: key,
      identityFormat,
    };
    this.cache.remember(key, secret, principal, generation);
    return principal;
  }
}
