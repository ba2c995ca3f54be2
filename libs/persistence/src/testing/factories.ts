import { SYSTEM_GROUP_NAME } from '@twofold/domain';
import { AccountEntity } from '../lib/entities';
import { AccountsRepository, GroupsRepository, ResourcesRepository } from '../lib/repositories';
import { Db } from '../lib/transaction-context';
import { generateApiCredentials } from '../lib/credentials';
import { SecretCipher } from '../lib/secret-cipher';

export interface TestAccount {
  account: AccountEntity;
  apiKey: string;
  apiSecret: string;
  /** value of the Authorization header for the account API */
  authorization: string;
}

export function basicAuthorization(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

/** An account with its AllUsers group and API credentials (enabled unless said otherwise). */
export async function newAccount(
  db: Db,
  cipher: SecretCipher,
  options: { name?: string; licenses?: number; apiEnabled?: boolean; now?: Date } = {},
): Promise<TestAccount> {
  const now = options.now ?? new Date();
  const accounts = new AccountsRepository(db);
  const account = await accounts.insert({ name: options.name ?? 'Test account', licenses: options.licenses ?? 100, createdAt: now });
  await new GroupsRepository(db).insert(account.id, { name: SYSTEM_GROUP_NAME, system: true, createdAt: now });
  const credentials = generateApiCredentials();
  await accounts.setApi(account.id, {
    apiEnabled: options.apiEnabled ?? true,
    apiKey: credentials.key,
    apiSecretEnc: cipher.encrypt('account.api-secret', credentials.secret),
  });
  return {
    account,
    apiKey: credentials.key,
    apiSecret: credentials.secret,
    authorization: basicAuthorization(credentials.key, credentials.secret),
  };
}

/** A resource of the account with its own credentials. */
export async function newResource(db: Db, cipher: SecretCipher, accountId: string, name = 'Test resource') {
  const credentials = generateApiCredentials();
  const resource = await new ResourcesRepository(db).insert(accountId, {
    name,
    apiKey: credentials.key,
    apiSecretEnc: cipher.encrypt('resource.api-secret', credentials.secret),
    createdAt: new Date(),
  });
  return { resource, apiKey: credentials.key, apiSecret: credentials.secret, authorization: basicAuthorization(credentials.key, credentials.secret) };
}
