import { databaseUnavailableCode } from '@twofold/persistence';

/**
 * Start-up failures an operator can fix (a busy port, a database that is not there yet) end in one
 * line saying what to change; a stack is kept for our own bugs. The database is retried with back-off
 * because orchestrators start the API and PostgreSQL together and the API often wins the race.
 */

/** first wait before retrying the database; each later wait doubles, up to START_RETRY_MAX_DELAY_MS */
export const START_RETRY_INITIAL_DELAY_MS = 500;
export const START_RETRY_MAX_DELAY_MS = 8000;
// the number of attempts is a setting: DATABASE_START_ATTEMPTS, default DEFAULT_DATABASE_START_ATTEMPTS (config/app-config.ts)

/**
 * A short reason for the log when the database cannot answer now (the same causes the running API
 * answers 503 for: refused, reset or timed-out sockets, a server starting up or full), so a later
 * attempt may succeed; undefined for what no wait fixes (a wrong password, a missing database, our bug).
 */
export function unreachableReason(error: unknown): string | undefined {
  // a pooler refusing a setting is a protocol error (class 08) too, but only a configuration change fixes it
  if (refusedStartupParameter(error) !== undefined) return undefined;
  return databaseUnavailableCode(error);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export class DatabaseUnreachable extends Error {
  constructor(
    readonly attempts: number,
    readonly reason: string,
  ) {
    super(`database unreachable after ${attempts} attempt(s): ${reason}`);
  }
}

export function backoffDelayMs(retry: number): number {
  return Math.min(START_RETRY_INITIAL_DELAY_MS * 2 ** retry, START_RETRY_MAX_DELAY_MS);
}

export interface RetryOptions {
  attempts: number;
  /** injected so that tests never wait */
  sleep: (ms: number) => Promise<void>;
  onRetry: (info: { attempt: number; attempts: number; delayMs: number; reason: string }) => void;
}

/** `connect` until it succeeds, retrying only while the database is unreachable; DatabaseUnreachable after the last attempt. */
export async function connectWithRetry<T>(connect: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      const reason = unreachableReason(error);
      if (reason === undefined) throw error;
      if (attempt >= options.attempts) throw new DatabaseUnreachable(attempt, reason);
      const delayMs = backoffDelayMs(attempt - 1);
      options.onRetry({ attempt, attempts: options.attempts, delayMs, reason });
      await options.sleep(delayMs);
    }
  }
}

/** host:port/database of a DATABASE_URL, never its credentials */
export function describeDatabase(databaseUrl: string | undefined): string {
  if (!databaseUrl) return 'the embedded PostgreSQL';
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** PostgreSQL's refusals that only a change of DATABASE_URL fixes */
const REFUSALS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist',
};

/**
 * PgBouncer refuses a connection that sets a parameter it does not track (the pool sets
 * statement_timeout at connect): protocol violation 08P01 with the parameter's name.
 */
function refusedStartupParameter(error: unknown): string | undefined {
  if (codeOf(error) !== '08P01') return undefined;
  const message = (error as { message?: unknown }).message;
  const match = typeof message === 'string' ? /^unsupported startup parameter: ([a-z_]+)/.exec(message) : null;
  return match?.[1];
}

/** The one line for a start-up failure an operator can fix; undefined for anything else (a bug: keep its stack). */
export function startupFailureLine(error: unknown, context: { port: number; databaseUrl?: string }): string | undefined {
  const code = codeOf(error);
  if (code === 'EADDRINUSE') return `port ${context.port} is in use; set PORT to a free port or stop the process that holds it`;
  if (code === 'EACCES' && (error as { syscall?: unknown }).syscall === 'listen') {
    return `port ${context.port} may not be opened by this user; set PORT (1024 or above)`;
  }
  const database = describeDatabase(context.databaseUrl);
  if (error instanceof DatabaseUnreachable) {
    return `cannot reach the database at ${database} (${error.reason}) after ${error.attempts} attempt(s); check DATABASE_URL and that PostgreSQL is running (DATABASE_START_ATTEMPTS sets the attempts)`;
  }
  if (code && REFUSALS[code]) return `cannot use the database at ${database}: ${REFUSALS[code]}; check DATABASE_URL`;
  const pooler = refusedStartupParameter(error);
  if (pooler !== undefined) {
    return `cannot use the database at ${database}: a connection pooler in front of PostgreSQL refuses the connection setting ${pooler}; add it to ignore_startup_parameters in pgbouncer.ini and set it on the database role instead (docs/operations/scaling.md)`;
  }
  return undefined;
}

/** How the CLI is run in a checkout of the repository; the image names its own (TWOFOLD_CLI_COMMAND). */
export const DEFAULT_CLI_COMMAND = 'npm run --silent cli --';

/** The last start-up line while the database holds no account: the command that creates the first one. */
export function provisioningHint(cliCommand: string | undefined): string {
  return `No account yet. Create one with: ${cliCommand ?? DEFAULT_CLI_COMMAND} account create --name "My company" --owner-email you@example.com --enable-api --json`;
}
