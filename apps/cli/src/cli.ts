import { parseArgs } from 'node:util';
import { DomainError } from '@twofold/domain';
import { Provisioning } from './provisioning';

export const USAGE = `Twofold operator CLI

  account create --name NAME --owner-email EMAIL [--owner-name NAME] [--licenses N] [--enable-api]
  account list
  account show --account ID
  api enable --account ID
  api disable --account ID
  api rotate-secret --account ID
  token-key rotate      a new RSA key signs JwtRS256 access tokens; the old one stays published until its tokens expire

Add --json for one JSON object on stdout. Uses DATABASE_URL, else the embedded database under .data/.`;

export class UsageError extends Error {}

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

/** Human-readable form of a result, for use without --json. */
function describe(result: Record<string, unknown>): string {
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value)}`)
    .join('\n');
}

/** Parses the command line (before any database work, so usage errors are instant) and runs it. */
export function parseCommand(argv: string[]): { run: (p: Provisioning) => Promise<Record<string, unknown>>; json: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      licenses: { type: 'string' },
      'enable-api': { type: 'boolean', default: false },
      account: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const command = positionals.join(' ');
  const json = values.json === true;
  switch (command) {
    case 'account create': {
      const name = required(values, 'name');
      const ownerEmail = required(values, 'owner-email');
      const licensesText = values.licenses;
      if (licensesText !== undefined && !/^\d+$/.test(licensesText)) throw new UsageError('--licenses must be a non-negative integer');
      const licenses = licensesText === undefined ? undefined : Number(licensesText);
      return {
        json,
        run: async (p) => ({
          ...(await p.createAccount({
            name,
            ownerEmail,
            ownerName: values['owner-name'],
            licenses,
            enableApi: values['enable-api'] === true,
          })),
        }),
      };
    }
    case 'account list':
      return {
        json,
        run: async (p) => ({
          accounts: (await p.list()).map((a) => ({
            id: a.id,
            name: a.name,
            licenses: a.licenses,
            apiEnabled: a.apiEnabled,
            createdAt: a.createdAt.toISOString(),
          })),
        }),
      };
    case 'account show': {
      const account = required(values, 'account');
      return { json, run: async (p) => ({ account: await p.show(account) }) };
    }
    case 'api enable': {
      const account = required(values, 'account');
      return { json, run: async (p) => ({ ...(await p.enableApi(account)) }) };
    }
    case 'api disable': {
      const account = required(values, 'account');
      return { json, run: async (p) => ({ ...(await p.disableApi(account)) }) };
    }
    case 'api rotate-secret': {
      const account = required(values, 'account');
      return { json, run: async (p) => ({ ...(await p.rotateSecret(account)) }) };
    }
    case 'token-key rotate':
      return { json, run: async (p) => ({ ...(await p.rotateTokenKey()) }) };
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'no command given');
  }
}

/** Exit code: 0 done, 1 refused (validation, not found), 2 usage. */
export async function runCli(
  argv: string[],
  output: CliOutput,
  connect: () => Promise<{ provisioning: Provisioning; close(): Promise<void> }>,
): Promise<number> {
  let command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    output.err(`twofold-cli: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const connection = await connect();
  try {
    const result = await command.run(connection.provisioning);
    output.out((command.json ? JSON.stringify(result) : describe(result)) + '\n');
    return 0;
  } catch (error) {
    if (error instanceof DomainError) {
      output.err(`twofold-cli: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await connection.close();
  }
}
