import { AccountEntity } from './entities';
import { generateApiCredentials } from './credentials';
import { AccountsRepository } from './repositories/accounts.repository';
import { SecretCipher } from './secret-cipher';

/**
 * The account API's own credentials as the operator's CLI and an Admin of the console change them,
 * written one way: the secret encrypted under its purpose, every change announced to each instance's
 * credentials cache (AccountsRepository.setApi). Journaling stays with the caller, which names its
 * actor (the operator, or the administrator).
 */
export class AccountApiCredentials {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * The API switched on: its key, and the secret when this enable made it. Existing credentials are
   * kept (a disable/enable cycle must not break configured clients); the first enable generates them.
   */
  async enable(account: AccountEntity): Promise<{ key: string; newSecret: string | null }> {
    if (account.apiKey && account.apiSecretEnc) {
      await this.accounts.setApi(account.id, { apiEnabled: true });
      return { key: account.apiKey, newSecret: null };
    }
    const credentials = generateApiCredentials();
    await this.accounts.setApi(account.id, {
      apiEnabled: true,
      apiKey: credentials.key,
      apiSecretEnc: this.cipher.encrypt('account.api-secret', credentials.secret),
    });
    return { key: credentials.key, newSecret: credentials.secret };
  }

  /** The stored secret, decrypted (to be shown to the one who asked, never logged nor journaled). */
  secretOf(account: AccountEntity): string {
    if (!account.apiSecretEnc) throw new Error('the account has no API secret stored');
    return this.cipher.decryptText('account.api-secret', account.apiSecretEnc);
  }

  async disable(account: AccountEntity): Promise<void> {
    await this.accounts.setApi(account.id, { apiEnabled: false });
  }

  /** A new secret for the same key, the switch as it was: clients change one value, and the old secret stops working at once. */
  async newSecret(account: AccountEntity): Promise<string> {
    const { secret } = generateApiCredentials();
    await this.accounts.setApi(account.id, {
      apiEnabled: account.apiEnabled,
      apiSecretEnc: this.cipher.encrypt('account.api-secret', secret),
    });
    return secret;
  }
}
