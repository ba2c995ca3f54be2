import {
  asAccountId,
  effectiveDisplayName,
  Clock,
  NotFound,
  requireUuid,
  SYSTEM_GROUP_NAME,
  TOKEN_SIGNING_KEY_RETENTION_SECONDS,
  validateAdminEmail,
  validateDisplayName,
  ValidationFailed,
} from '@twofold/domain';
import { JournalAction, JournalFields, JournalObject, JournalWriter } from '@twofold/journal';
import {
  AccountApiCredentials,
  AccountEntity,
  AccountsRepository,
  AdministratorsRepository,
  Db,
  generateTokenSigningKey,
  GroupsRepository,
  SecretCipher,
  TokenSigningKeysRepository,
  UsersRepository,
} from '@twofold/persistence';
import { CliRefusal } from './cli-errors';

/** licenses of a new account unless --licenses says otherwise */
export const DEFAULT_LICENSES = 100;
/** the journal's subject for the operator's actions */
export const CLI_SUBJECT = 'cli';
/**
 * The operator's journal subject is `cli`, which a user may also have as an identity (a user's own
 * actions, such as registering on the access page, carry their identity as subject). So every
 * operator event also carries this marker, which only the CLI writes.
 */
export const OPERATOR_MARKER = { Source: 'OperatorCli' } as const;

export interface CreatedAccount {
  /** displayName: what pages, mails and authenticator apps show (the name unless --display-name) */
  account: { id: string; name: string; displayName: string; licenses: number };
  owner: { id: string; identity: string; status: string };
  api: { enabled: boolean; key: string | null; secret: string | null };
  /** only with --allow-second-account for an owner who already owns accounts: their ids */
  ownerAlsoOwns?: string[];
}

/** How many users an account may have and has; `previous` only when `--set` changed it. */
export interface LicenseUse {
  account: { id: string; name: string };
  licenses: number;
  /** users the account has: each takes one licence, whatever its status */
  used: number;
  /** users it may still create (0 when at or over its licences) */
  free: number;
  changed?: boolean;
  previous?: number;
}

/** the most licences `--licenses` and `account licenses --set` accept: far above any customer, far below the column's limit */
export const MAX_LICENSES = 10_000_000;

export interface ApiState {
  enabled: boolean;
  key?: string;
  secret?: string;
}

/** The operator's provisioning: every change in one transaction with its journal event. */
export class Provisioning {
  private readonly accounts: AccountsRepository;
  private readonly apiCredentials: AccountApiCredentials;
  private readonly administrators: AdministratorsRepository;
  private readonly groups: GroupsRepository;
  private readonly journal: JournalWriter;

  constructor(
    private readonly db: Db,
    /** the CLI's configured keys: SECRET_ENCRYPTION_KEY and SECRET_ENCRYPTION_PREVIOUS_KEYS */
    readonly cipher: SecretCipher,
    private readonly clock: Clock,
  ) {
    this.accounts = new AccountsRepository(db);
    this.apiCredentials = new AccountApiCredentials(this.accounts, cipher);
    this.administrators = new AdministratorsRepository(db);
    this.groups = new GroupsRepository(db);
    this.journal = new JournalWriter(db, clock);
  }

  async createAccount(input: {
    name: string;
    /** the customer's name on pages, mails and authenticator apps; default the account's name */
    displayName?: string;
    ownerEmail: string;
    ownerName?: string;
    licenses?: number;
    enableApi: boolean;
    /** the owner may already own an account: create another one for them */
    allowSecondAccount?: boolean;
  }): Promise<CreatedAccount> {
    const name = input.name.trim();
    if (!name) throw new ValidationFailed('--name must not be empty.');
    const displayName = input.displayName === undefined ? null : validateDisplayName(input.displayName, '--display-name');
    let email: string;
    try {
      // the owner is an administrator: the same e-mail rule as POST /admins
      email = validateAdminEmail(input.ownerEmail);
    } catch {
      throw new ValidationFailed('--owner-email must be an e-mail address.');
    }
    const licenses = input.licenses ?? DEFAULT_LICENSES;
    if (!Number.isInteger(licenses) || licenses < 0 || licenses > MAX_LICENSES)
      throw new ValidationFailed(`--licenses must be an integer from 0 to ${MAX_LICENSES}.`);

    return this.db.transaction(async () => {
      const owned = await this.administrators.accountsAdministeredBy(email);
      // a second run of the same command (a retried script) would otherwise make a twin account silently
      if (owned.length > 0 && !input.allowSecondAccount) {
        throw new CliRefusal(
          'OWNER_HAS_ACCOUNT',
          `${email} already owns account ${owned.join(', ')}: add --allow-second-account to create another one for them.`,
        );
      }
      const now = this.clock.now();
      const account = await this.accounts.insert({ name, displayName, licenses, createdAt: now });
      await this.groups.insert(account.id, { name: SYSTEM_GROUP_NAME, system: true, createdAt: now });
      // The operator vouches for the owner: Active at once; they set up their own second factor at first sign-in.
      const owner = await this.administrators.insert(account.id, {
        identity: email,
        name: input.ownerName?.trim() || email,
        role: 'Admin',
        status: 'Active',
        registrationDate: now,
        lastLoginDate: null,
      });
      await this.recordOperatorEvent(account.id, 'Employee', 'Create', { EmployeeId: owner.id, EmployeeIdentity: owner.identity });
      const api: ApiState = input.enableApi ? await this.enableApiOf(account) : { enabled: false };
      return {
        account: { id: account.id, name: account.name, displayName: effectiveDisplayName(account), licenses: account.licenses },
        owner: { id: owner.id, identity: owner.identity, status: owner.status },
        api: { enabled: api.enabled, key: api.key ?? null, secret: api.secret ?? null },
        ...(owned.length > 0 ? { ownerAlsoOwns: owned } : {}),
      };
    });
  }

  /**
   * Shows an account's licences and their use; with `set`, changes them (journaled Accounts
   * ChangeLicenses). Never below the users the account already has: those users would stay and
   * every new one be refused, which nobody asks for on purpose; they are deleted first.
   * The account row is locked as user creation locks it, so a user created meanwhile is counted.
   */
  async licenses(accountId: string, set?: number): Promise<LicenseUse> {
    if (set !== undefined && (!Number.isInteger(set) || set < 0 || set > MAX_LICENSES))
      throw new ValidationFailed(`--set must be an integer from 0 to ${MAX_LICENSES}.`);
    return this.db.transaction(async () => {
      const account = await this.find(accountId);
      const { licenses, users } = await this.accounts.lockForUserCreation(account.id);
      const use = (n: number): LicenseUse => ({
        account: { id: account.id, name: account.name },
        licenses: n,
        used: users,
        free: Math.max(n - users, 0),
      });
      if (set === undefined) return use(licenses);
      if (set < users) throw new ValidationFailed(`The account has ${users} users: set at least ${users} licences, or delete users first.`);
      if (set === licenses) return { ...use(licenses), changed: false, previous: licenses };
      await this.accounts.setLicenses(account.id, set);
      await this.recordOperatorEvent(account.id, 'Accounts', 'ChangeLicenses', {
        Licenses: String(set),
        PreviousLicenses: String(licenses),
      });
      return { ...use(set), changed: true, previous: licenses };
    });
  }

  async enableApi(accountId: string): Promise<Required<ApiState>> {
    return this.db.transaction(async () => this.enableApiOf(await this.find(accountId)));
  }

  async disableApi(accountId: string): Promise<ApiState> {
    return this.db.transaction(async () => {
      const account = await this.find(accountId);
      await this.apiCredentials.disable(account);
      await this.recordOperatorEvent(account.id, 'Api', 'Disable');
      return { enabled: false };
    });
  }

  /** A new secret for the same key: clients change one value, the old secret stops working at once. */
  async rotateSecret(accountId: string): Promise<Required<ApiState>> {
    return this.db.transaction(async () => {
      const account = await this.find(accountId);
      if (!account.apiKey) throw new ValidationFailed('The API of this account has never been enabled: run `api enable` first.');
      const secret = await this.apiCredentials.newSecret(account);
      await this.recordOperatorEvent(account.id, 'PublicApiSecret', 'Update');
      return { enabled: account.apiEnabled, key: account.apiKey, secret };
    });
  }

  /**
   * `token-key rotate`: a new RSA key signs JwtRS256 tokens from now on; the old one is
   * retired in the same transaction and stays in the JWKS until the tokens it signed have expired.
   * Keys retired longer ago than that are deleted. Not journaled: the key is the service's, no account's.
   */
  /**
   * A new signing key, published at once and signing after `aheadSeconds` (0: at once, an emergency
   * rotation that also stops every earlier key from signing).
   */
  async rotateTokenKey(options: { aheadSeconds?: number } = {}): Promise<{ kid: string; signsFrom: string }> {
    const now = this.clock.now();
    const key = await generateTokenSigningKey(this.cipher, now);
    const forgetBefore = new Date(now.getTime() - TOKEN_SIGNING_KEY_RETENTION_SECONDS * 1000);
    const signsFrom = new Date(now.getTime() + (options.aheadSeconds ?? 0) * 1000);
    const { retired } = await new TokenSigningKeysRepository(this.db).rotate(key, now, forgetBefore, signsFrom);
    // the first key has no predecessor to wait for: it signs at once
    return { kid: key.kid, signsFrom: (retired === null ? now : signsFrom).toISOString() };
  }

  list(): Promise<AccountEntity[]> {
    return this.accounts.list();
  }

  async show(accountId: string) {
    const account = await this.find(accountId);
    const administrators = await this.administrators.listAll(account.id);
    return {
      id: account.id,
      name: account.name,
      displayName: effectiveDisplayName(account),
      licenses: account.licenses,
      createdAt: account.createdAt.toISOString(),
      api: { enabled: account.apiEnabled, key: account.apiKey },
      directorySync: account.directorySync,
      administrators: administrators.map((a) => ({ id: a.id, identity: a.identity, name: a.name, role: a.role, status: a.status })),
      // users whose identities look alike (`Straße` and `STRASSE`), kept apart when identities began to be
      // compared by key: each is found only by its exact identity until an administrator renames or deletes one
      identityLookAlikes: await new UsersRepository(this.db).lookAlikeGroups(account.id),
    };
  }

  /**
   * Enabling keeps existing credentials, the first enable generates them (AccountApiCredentials). The
   * operator sees the secret, as in the console's API settings.
   */
  private async enableApiOf(account: AccountEntity): Promise<Required<ApiState>> {
    const { key, newSecret } = await this.apiCredentials.enable(account);
    const secret = newSecret ?? this.apiCredentials.secretOf(account);
    await this.recordOperatorEvent(account.id, 'Api', 'Enable');
    return { enabled: true, key, secret };
  }

  /** An operator's event: subject `cli` and the operator marker. */
  private recordOperatorEvent<O extends JournalObject>(accountId: string, object: O, action: JournalAction<O>, fields: JournalFields = {}) {
    return this.journal.record(asAccountId(accountId), {
      object,
      action,
      subject: CLI_SUBJECT,
      success: true,
      additionalFields: { ...fields, ...OPERATOR_MARKER },
    });
  }

  private async find(accountId: string): Promise<AccountEntity> {
    // the operator's argument: an account's id only once it is found
    const account = await this.accounts.findById(asAccountId(requireUuid(accountId, 'Account')));
    if (!account) throw new NotFound('Account');
    return account;
  }
}
