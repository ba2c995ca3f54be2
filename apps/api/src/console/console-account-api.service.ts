import { Injectable } from '@nestjs/common';
import { AccountId, NotFound, ValidationFailed } from '@twofold/domain';
import { JournalAction, JournalWriter } from '@twofold/journal';
import { AccountApiCredentials, AccountEntity, AccountsRepository, Db, SecretCipher } from '@twofold/persistence';
import { ConsoleSession } from './console-sessions';

/** The account's own API: whether it is on, and its key (the secret only when asked for, each time journaled). */
export interface AccountApiView {
  enabled: boolean;
  /** null until the API is enabled for the first time */
  apiKey: string | null;
}

export interface AccountApiSecretView extends AccountApiView {
  apiKey: string;
  apiSecret: string;
}

export const API_NEVER_ENABLED = 'The API of this account has never been enabled: enable it first.';

/**
 * The account API's key, secret and switch, changed by an Admin of the console through
 * AccountApiCredentials, as the CLI's operator changes them. Each change and each display of the secret
 * is journaled in the same transaction, the administrator as the actor; the secret itself never reaches
 * the journal.
 */
@Injectable()
export class ConsoleAccountApiService {
  private readonly credentials: AccountApiCredentials;

  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsRepository,
    cipher: SecretCipher,
    private readonly journal: JournalWriter,
  ) {
    this.credentials = new AccountApiCredentials(accounts, cipher);
  }

  async read(accountId: AccountId): Promise<AccountApiView> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw new NotFound('Account');
    return { enabled: account.apiEnabled, apiKey: account.apiKey };
  }

  displaySecret(session: ConsoleSession): Promise<AccountApiSecretView> {
    return this.db.transaction(async () => {
      const account = await this.find(session.accountId);
      if (!account.apiKey || !account.apiSecretEnc) throw new ValidationFailed(API_NEVER_ENABLED);
      const apiSecret = this.credentials.secretOf(account);
      await this.record(session, 'PublicApiSecret', 'Display');
      return { enabled: account.apiEnabled, apiKey: account.apiKey, apiSecret };
    });
  }

  rotateSecret(session: ConsoleSession): Promise<AccountApiSecretView> {
    return this.db.transaction(async () => {
      const account = await this.find(session.accountId);
      if (!account.apiKey) throw new ValidationFailed(API_NEVER_ENABLED);
      const secret = await this.credentials.newSecret(account);
      await this.record(session, 'PublicApiSecret', 'Update');
      return { enabled: account.apiEnabled, apiKey: account.apiKey, apiSecret: secret };
    });
  }

  setEnabled(session: ConsoleSession, enabled: boolean): Promise<AccountApiView> {
    return this.db.transaction(async () => {
      const account = await this.find(session.accountId);
      const apiKey = enabled ? (await this.credentials.enable(account)).key : account.apiKey;
      if (!enabled) await this.credentials.disable(account);
      await this.record(session, 'Api', enabled ? 'Enable' : 'Disable');
      return { enabled, apiKey };
    });
  }

  private async find(accountId: AccountId): Promise<AccountEntity> {
    const account = await this.accounts.findForUpdate(accountId);
    if (!account) throw new NotFound('Account');
    return account;
  }

  /** As the account API journals a console call: the administrator's e-mail as the subject, and them as the actor. */
  private record<O extends 'Api' | 'PublicApiSecret'>(session: ConsoleSession, object: O, action: JournalAction<O>): Promise<void> {
    return this.journal.record(session.accountId, {
      object,
      action,
      subject: session.identity,
      success: true,
      additionalFields: { EmployeeId: session.administratorId, EmployeeIdentity: session.identity },
    });
  }
}
