import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { DomainError, effectiveDisplayName, parsePublishAhead } from '@twofold/domain';
import {
  DEFAULT_ROTATION_BATCH_SIZE,
  migrationStatus,
  revertLastMigration,
  rotateSecretEncryptionKey,
  runPendingMigrations,
  SettingError,
} from '@twofold/persistence';
import { CliRefusal, UsageError } from './cli-errors';
import { Provisioning } from './provisioning';
import { CliTelegram, telegramSettings } from './telegram';
import { TWOFOLD_VERSION } from '@twofold/domain';

export { UsageError } from './cli-errors';

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

export interface CliConnection {
  provisioning: Provisioning;
  dataSource: DataSource;
  close(): Promise<void>;
}

/** `migrate: false` for the `migrate` commands, which look at the schema before changing it. */
export type Connect = (options: { migrate: boolean }) => Promise<CliConnection>;

type Values = Record<string, string | boolean | undefined>;
type Run = (c: CliConnection) => Promise<Record<string, unknown>>;

interface Flag {
  type: 'string' | 'boolean';
  /** NAME in `--flag NAME`; absent for a boolean */
  value?: string;
  help: string;
  required?: boolean;
}

interface Command {
  name: string;
  summary: string;
  flags: Record<string, Flag>;
  example: string;
  /** false: connect without applying pending migrations */
  migrate?: false;
  /** false: the command needs no database (it talks to the Telegram Bot API only) */
  database?: false;
  build(values: Values, env: NodeJS.ProcessEnv): Run;
}

const ACCOUNT: Flag = { type: 'string', value: 'ID', help: "the account's id (account list shows them)", required: true };

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

const COMMANDS: Command[] = [
  {
    name: 'account create',
    summary: 'a new account with its owner (an Active administrator with role Admin) and, optionally, API credentials',
    flags: {
      name: { type: 'string', value: 'NAME', help: "the account's name", required: true },
      'display-name': {
        type: 'string',
        value: 'NAME',
        help: "the customer's name on its pages, mails and authenticator apps (default: --name; at most 64 characters, no ':')",
      },
      'owner-email': { type: 'string', value: 'EMAIL', help: "the owner's e-mail, their sign-in identity", required: true },
      'owner-name': { type: 'string', value: 'NAME', help: "the owner's display name (default: the e-mail)" },
      licenses: { type: 'string', value: 'N', help: 'users the account may have (default 100)' },
      'enable-api': { type: 'boolean', help: 'generate the account API key and secret and print them (api enable prints them again)' },
      'allow-second-account': { type: 'boolean', help: 'create the account even if the owner e-mail already owns one' },
    },
    example: 'account create --name "acme" --display-name "Acme Bank" --owner-email owner@acme.test --enable-api --json',
    build: (values) => {
      const name = required(values, 'name');
      const ownerEmail = required(values, 'owner-email');
      const licensesText = values['licenses'];
      if (typeof licensesText === 'string' && !/^\d+$/.test(licensesText))
        throw new UsageError('--licenses must be a non-negative integer');
      const licenses = typeof licensesText === 'string' ? Number(licensesText) : undefined;
      return async ({ provisioning }) => ({
        ...(await provisioning.createAccount({
          name,
          displayName: values['display-name'] as string | undefined,
          ownerEmail,
          ownerName: values['owner-name'] as string | undefined,
          licenses,
          enableApi: values['enable-api'] === true,
          allowSecondAccount: values['allow-second-account'] === true,
        })),
      });
    },
  },
  {
    name: 'account list',
    summary: 'every account, without secrets',
    flags: {},
    example: 'account list --json',
    build:
      () =>
      async ({ provisioning }) => ({
        accounts: (await provisioning.list()).map((a) => ({
          id: a.id,
          name: a.name,
          displayName: effectiveDisplayName(a),
          licenses: a.licenses,
          apiEnabled: a.apiEnabled,
          createdAt: a.createdAt.toISOString(),
        })),
      }),
  },
  {
    name: 'account show',
    summary: 'one account with its administrators, without secrets',
    flags: { account: ACCOUNT },
    example: 'account show --account 6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e --json',
    build: (values) => {
      const account = required(values, 'account');
      return async ({ provisioning }) => ({ account: await provisioning.show(account) });
    },
  },
  {
    name: 'account licenses',
    summary:
      'how many users the account may have (its licences) and has; --set changes it (journaled Accounts ChangeLicenses), never below the users it has',
    flags: {
      account: ACCOUNT,
      set: { type: 'string', value: 'N', help: 'the new number of licences (at least the users the account has)' },
    },
    example: 'account licenses --account 6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e --set 250 --json',
    build: (values) => {
      const account = required(values, 'account');
      const text = values['set'];
      if (typeof text === 'string' && !/^\d+$/.test(text)) throw new UsageError('--set must be a non-negative integer');
      const set = typeof text === 'string' ? Number(text) : undefined;
      return async ({ provisioning }) => ({ ...(await provisioning.licenses(account, set)) });
    },
  },
  {
    name: 'api enable',
    summary: 'turns the account API on; prints its key and secret (the first time generated, later the same)',
    flags: { account: ACCOUNT },
    example: 'api enable --account 6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e --json',
    build: (values) => {
      const account = required(values, 'account');
      return async ({ provisioning }) => ({ ...(await provisioning.enableApi(account)) });
    },
  },
  {
    name: 'api disable',
    summary: 'turns the account API off (its calls answer 403); the credentials are kept',
    flags: { account: ACCOUNT },
    example: 'api disable --account 6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e --json',
    build: (values) => {
      const account = required(values, 'account');
      return async ({ provisioning }) => ({ ...(await provisioning.disableApi(account)) });
    },
  },
  {
    name: 'api rotate-secret',
    summary: 'a new API secret for the same key; the old secret stops working at once',
    flags: { account: ACCOUNT },
    example: 'api rotate-secret --account 6f1c0e2a-7d3b-4a4e-9a59-0d0f4a3c2b1e --json',
    build: (values) => {
      const account = required(values, 'account');
      return async ({ provisioning }) => ({ ...(await provisioning.rotateSecret(account)) });
    },
  },
  {
    name: 'token-key rotate',
    summary:
      'a new RSA key for JwtRS256 access tokens, published in the JWKS at once and signing after TOKEN_KEY_PUBLISH_AHEAD (default 24h: portals that load the JWKS once see it first); the old one signs until then and stays published until its tokens expire',
    flags: {
      now: {
        type: 'boolean',
        help: 'emergency: the new key signs at once and every older key stops signing; restart the self-service portals afterwards',
      },
    },
    example: 'token-key rotate --json',
    build: (values, env) => {
      let aheadSeconds = 0;
      if (values['now'] !== true) {
        try {
          aheadSeconds = parsePublishAhead(env['TOKEN_KEY_PUBLISH_AHEAD']);
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      }
      return async ({ provisioning }) => ({ ...(await provisioning.rotateTokenKey({ aheadSeconds })) });
    },
  },
  {
    name: 'secrets rotate-key',
    summary:
      're-encrypts every stored secret under SECRET_ENCRYPTION_KEY (the keys it replaces in SECRET_ENCRYPTION_PREVIOUS_KEYS); safe while the API runs, and to run again',
    flags: {
      'batch-size': { type: 'string', value: 'N', help: `rows read and written per statement (default ${DEFAULT_ROTATION_BATCH_SIZE})` },
    },
    example: 'secrets rotate-key --batch-size 500 --json',
    build: (values) => {
      const text = values['batch-size'];
      if (typeof text === 'string' && (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 100_000))
        throw new UsageError('--batch-size must be an integer from 1 to 100000');
      const batchSize = typeof text === 'string' ? Number(text) : DEFAULT_ROTATION_BATCH_SIZE;
      return async ({ provisioning, dataSource }) => {
        const result = await rotateSecretEncryptionKey(dataSource, provisioning.cipher, { batchSize });
        if (result.undecryptable > 0) {
          throw new CliRefusal(
            'UNDECRYPTABLE_SECRETS',
            `${result.undecryptable} stored secrets could not be decrypted with the configured keys and were left as they are ` +
              `(re-encrypted ${result.reencrypted}, already current ${result.alreadyCurrent}, skipped ${result.skipped}); ` +
              `add their keys to SECRET_ENCRYPTION_PREVIOUS_KEYS and run again: ${result.undecryptableRows.join('; ')}`,
          );
        }
        return {
          keyId: result.keyId,
          reencrypted: result.reencrypted,
          alreadyCurrent: result.alreadyCurrent,
          skipped: result.skipped,
          columns: result.columns.map(({ column, reencrypted, alreadyCurrent, skipped }) => ({
            column,
            reencrypted,
            alreadyCurrent,
            skipped,
          })),
          ...(result.skipped > 0 ? { note: 'skipped rows changed while this ran: run again to check them' } : {}),
        };
      };
    },
  },
  {
    name: 'migrate status',
    summary: 'the schema migrations the database has applied, and those of this version it has not',
    flags: {},
    example: 'migrate status --json',
    migrate: false,
    build:
      () =>
      async ({ dataSource }) => ({ ...(await migrationStatus(dataSource)) }),
  },
  {
    name: 'migrate run',
    summary: 'applies the pending migrations (the API also does at start); waits while another process migrates',
    flags: {},
    example: 'migrate run --json',
    migrate: false,
    build:
      () =>
      async ({ dataSource }) => ({ ran: await runPendingMigrations(dataSource) }),
  },
  {
    name: 'migrate revert',
    summary: 'undoes the last applied migration; may drop data, so it asks for --yes',
    flags: { yes: { type: 'boolean', help: 'confirms the revert', required: true } },
    example: 'migrate revert --yes --json',
    migrate: false,
    build: (values) => {
      // refused before connecting: a forgotten flag must not come near the schema
      if (values['yes'] !== true) throw new UsageError('migrate revert undoes the last migration and may drop data: add --yes to confirm');
      return async ({ dataSource }) => ({ reverted: await revertLastMigration(dataSource) });
    },
  },
  {
    name: 'telegram status',
    summary: 'the bot (TELEGRAM_BOT_TOKEN), how it gets updates, and the webhook Telegram has registered; never the token',
    flags: {},
    example: 'telegram status --json',
    database: false,
    build: (_values, env) => {
      const settings = telegramSettings(env);
      return async () => new CliTelegram(settings).status();
    },
  },
  {
    name: 'telegram set-webhook',
    summary: 'registers $PUBLIC_URL/telegram/updates (or --url) with Telegram, with TELEGRAM_WEBHOOK_SECRET as its secret token',
    flags: { url: { type: 'string', value: 'URL', help: 'where Telegram posts updates (default $PUBLIC_URL/telegram/updates)' } },
    example: 'telegram set-webhook --json',
    database: false,
    build: (values, env) => {
      const settings = telegramSettings(env);
      const url = typeof values['url'] === 'string' ? values['url'] : undefined;
      return async () => new CliTelegram(settings).setWebhook(url);
    },
  },
  {
    name: 'telegram delete-webhook',
    summary: 'removes the webhook: the API then polls getUpdates (TELEGRAM_UPDATES=polling)',
    flags: {},
    example: 'telegram delete-webhook --json',
    database: false,
    build: (_values, env) => {
      const settings = telegramSettings(env);
      return async () => new CliTelegram(settings).deleteWebhook();
    },
  },
];

const COMMON_FLAGS: Record<string, Flag> = {
  json: { type: 'boolean', help: 'the result as one JSON object on stdout; an error as one {"error":{code,message}} on stderr' },
  help: { type: 'boolean', help: 'this help (always text, also with --json)' },
};

function flagSynopsis(name: string, flag: Flag): string {
  const text = flag.type === 'string' ? `--${name} ${flag.value}` : `--${name}`;
  return flag.required ? text : `[${text}]`;
}

export const USAGE = `Twofold operator CLI

Usage: npm run --silent cli -- <command> [flags] [--json]   (in the container: node dist/apps/cli/main.js <command> ...)

Commands:
${COMMANDS.map((c) => `  ${[c.name, ...Object.entries(c.flags).map(([n, f]) => flagSynopsis(n, f))].join(' ')}\n      ${c.summary}`).join('\n')}

Flags of every command:
  --json      ${COMMON_FLAGS['json'].help}
  -h, --help  ${COMMON_FLAGS['help'].help}; <command> --help shows the command's flags and an example
  --version   Twofold's version, without a command (with --json: {"version":"…"})

Uses DATABASE_URL, else the embedded database under .data/ (TWOFOLD_DATA_DIR); the telegram commands use
TELEGRAM_BOT_TOKEN, TELEGRAM_API_URL, TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL as the API does, and no database.
Exit codes: 0 done, 1 refused or failed, 2 wrong command line.`;

function commandHelp(command: Command): string {
  const flags = { ...command.flags, ...COMMON_FLAGS };
  const width = Math.max(...Object.entries(flags).map(([n, f]) => flagSynopsis(n, f).length));
  return `Usage: npm run --silent cli -- ${[command.name, ...Object.entries(command.flags).map(([n, f]) => flagSynopsis(n, f))].join(' ')} [--json]

${command.summary}

Flags:
${Object.entries(flags)
  .map(([n, f]) => `  ${flagSynopsis(n, f).padEnd(width)}  ${f.help}`)
  .join('\n')}

Example:
  npm run --silent cli -- ${command.example}`;
}

/** Human-readable form of a result, for use without --json. */
function describe(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)}`)
    .join('\n');
}

export type Parsed = { kind: 'help'; text: string } | { kind: 'run'; json: boolean; migrate: boolean; database: boolean; run: Run };

/** Parses the command line (before any database work, so usage errors are instant). */
export function parseCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Parsed {
  // every command's flags at once, so that the command is known before its own flags are checked
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  };
  for (const command of COMMANDS) for (const [name, flag] of Object.entries(command.flags)) options[name] = { type: flag.type };
  options['json'] = { type: 'boolean' };
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  const name = positionals.join(' ');
  if (values['version'] === true && !name) {
    return { kind: 'help', text: values['json'] === true ? JSON.stringify({ version: TWOFOLD_VERSION }) : `twofold ${TWOFOLD_VERSION}` };
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (values['help'] === true) {
    if (command) return { kind: 'help', text: commandHelp(command) };
    // `account --help` and `--help` alike: the list of commands
    if (!name || COMMANDS.some((c) => c.name.startsWith(`${name} `))) return { kind: 'help', text: USAGE };
  }
  if (!command) throw new UsageError(name ? `unknown command: ${name}` : 'no command given');
  for (const given of Object.keys(values)) {
    if (!(given in command.flags) && !(given in COMMON_FLAGS)) throw new UsageError(`${command.name} has no option '--${given}'`);
  }
  return {
    kind: 'run',
    json: values['json'] === true,
    migrate: command.migrate !== false,
    database: command.database !== false,
    run: command.build(values, env),
  };
}

/** `--json` is looked for in the raw arguments too, so that an unparsable command line still gets its error as JSON. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

interface Failure {
  code: string;
  message: string;
  exitCode: number;
  /** for our own bugs, shown in text mode only: the one case where a stack helps the operator report it */
  stack?: string;
}

/** The one line an operator (or a script, under --json) reads: a code, a message, never a stack. */
function failure(error: unknown, connecting: boolean): Failure {
  if (error instanceof UsageError) return { code: error.code, message: error.message, exitCode: 2 };
  if (error instanceof DomainError || error instanceof CliRefusal) return { code: error.code, message: error.message, exitCode: 1 };
  if (error instanceof SettingError) return { code: 'SETTING', message: error.message, exitCode: 1 };
  const message = error instanceof Error ? error.message : String(error);
  if (connecting) return { code: 'DATABASE_UNAVAILABLE', message: `cannot open the database: ${message}`, exitCode: 1 };
  return { code: 'FAILED', message, exitCode: 1, stack: error instanceof Error ? error.stack : undefined };
}

/** Exit code: 0 done, 1 refused (validation, not found) or failed, 2 usage. */
/** What a command without a database gets: asking it for the database is our bug. */
const NO_DATABASE: CliConnection = {
  get provisioning(): Provisioning {
    throw new Error('this command has no database');
  },
  get dataSource(): DataSource {
    throw new Error('this command has no database');
  },
  close: async () => undefined,
};

export async function runCli(argv: string[], output: CliOutput, connect: Connect, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const json = wantsJson(argv);
  const fail = (error: unknown, connecting = false): number => {
    const { code, message, exitCode, stack } = failure(error, connecting);
    const hint = exitCode === 2 ? ' (see --help)' : stack ? `\n${stack}` : '';
    output.err(json ? JSON.stringify({ error: { code, message } }) + '\n' : `twofold-cli: ${message}${hint}\n`);
    return exitCode;
  };
  let command: Parsed;
  try {
    command = parseCommand(argv, env);
  } catch (error) {
    if (error instanceof CliRefusal) return fail(error);
    // parseArgs' own errors (ERR_PARSE_ARGS_UNKNOWN_OPTION...) are usage errors too; they may come from another realm (no instanceof)
    return fail(error instanceof UsageError ? error : new UsageError(String((error as { message?: unknown }).message ?? error)));
  }
  if (command.kind === 'help') {
    output.out(command.text + '\n');
    return 0;
  }
  let connection: CliConnection;
  try {
    connection = command.database ? await connect({ migrate: command.migrate }) : NO_DATABASE;
  } catch (error) {
    return fail(error, true);
  }
  try {
    const result = await command.run(connection);
    output.out((command.json ? JSON.stringify(result) : describe(result)) + '\n');
    return 0;
  } catch (error) {
    return fail(error);
  } finally {
    await connection.close();
  }
}
