import { AccountId, SYSTEM_GROUP_NAME } from '@twofold/domain';
import { AccountEntity, TokenFormat } from '../lib/entities';
import {
  AccountsRepository,
  AuthenticatorsRepository,
  DecidedAccessRequest,
  GroupsRepository,
  ResourcesRepository,
  UsersRepository,
} from '../lib/repositories';
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

/** A resource of the account with its own credentials (token format JwtHS256 and no frame origins unless said otherwise). */
export async function newResource(
  db: Db,
  cipher: SecretCipher,
  accountId: AccountId,
  name = 'Test resource',
  options: { tokenFormat?: TokenFormat; frameOrigins?: string[]; now?: Date } = {},
) {
  const credentials = generateApiCredentials();
  const resource = await new ResourcesRepository(db).insert(accountId, {
    name,
    apiKey: credentials.key,
    apiSecretEnc: cipher.encrypt('resource.api-secret', credentials.secret),
    createdAt: options.now ?? new Date(),
    tokenFormat: options.tokenFormat,
    frameOrigins: options.frameOrigins,
  });
  return {
    resource,
    apiKey: credentials.key,
    apiSecret: credentials.secret,
    authorization: basicAuthorization(credentials.key, credentials.secret),
  };
}

/** A user of the account, created directly (no licence check, no journal). */
export async function newUser(db: Db, accountId: AccountId, identity: string, options: { locked?: boolean; now?: Date } = {}) {
  const users = new UsersRepository(db);
  const user = await users.insert(accountId, { identity, name: null, email: null, source: 'Api', createdAt: options.now ?? new Date() });
  if (options.locked) {
    await users.update(accountId, user.id, { isLocked: true });
    user.isLocked = true;
  }
  return user;
}

/** An OTP authenticator of a user with this key: SHA-1, 6 digits, fresh replay state (HOTP counter 0). */
export function newOtpAuthenticator(
  db: Db,
  cipher: SecretCipher,
  accountId: AccountId,
  userId: string,
  options: { kind: 'Totp' | 'TotpToken' | 'HotpToken'; key: Buffer; name?: string; now?: Date },
) {
  return new AuthenticatorsRepository(db).insert(accountId, {
    userId,
    kind: options.kind,
    name: options.name ?? 'Token',
    secretEnc: cipher.encrypt('authenticator.secret', options.key),
    privateIdEnc: null,
    algorithm: 'SHA1',
    digits: 6,
    hotpCounter: options.kind === 'HotpToken' ? '0' : null,
    lastTimeStep: null,
    createdAt: options.now ?? new Date(),
  });
}

/**
 * A request as `insertDecided` writes it: of the `ra` channel, in English, awaiting, with nothing
 * but its resource, user and identity unless `over` says otherwise.
 */
export function decidedAccessRequest(
  over: Pick<DecidedAccessRequest, 'resourceId' | 'userId' | 'identity' | 'createdAt'> & Partial<DecidedAccessRequest>,
): DecidedAccessRequest {
  return {
    email: null,
    phone: null,
    language: 'en',
    claims: null,
    callbackAction: null,
    callbackTarget: null,
    channel: 'ra',
    status: 'AwaitingAuthentication',
    failedAttempts: 0,
    grantedAt: null,
    authenticator: null,
    ...over,
  };
}
