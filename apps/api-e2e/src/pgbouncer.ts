import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';

/**
 * Debian's PgBouncer for the test of several API instances behind a transaction pooler
 * (docs/operations/scaling.md). The test starts its own, on a free port, in front of the run's
 * PostgreSQL server; it never touches a PgBouncer of the machine.
 */

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';

export const PGBOUNCER_INSTALL_HINT =
  'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y pgbouncer   (as root; .ci/run does it)';

export type PgbouncerAvailability = { available: true } | { available: false; mustFail: boolean; message: string };

/** Missing PgBouncer: CI must fail (a skipped test proves nothing); locally the test is skipped loudly. */
export function pgbouncerAvailability(env: NodeJS.ProcessEnv = process.env, path = PGBOUNCER_PATH): PgbouncerAvailability {
  if (existsSync(path)) return { available: true };
  const mustFail = Boolean(env['CI']) && env['CI'] !== 'false' && env['CI'] !== '0';
  const message = [
    '',
    '='.repeat(100),
    `${path} is missing: the test of several instances behind PgBouncer ${mustFail ? 'FAILS (CI is set)' : 'is SKIPPED'}.`,
    `Install Debian's pgbouncer:`,
    `    ${PGBOUNCER_INSTALL_HINT}`,
    '='.repeat(100),
    '',
  ].join('\n');
  return { available: false, mustFail, message };
}

export interface Pgbouncer {
  port: number;
  /** the URL of `database` on the server, through this PgBouncer */
  urlOf(database: string): string;
  output(): string;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /** a URL of the PostgreSQL server (its user and password are the ones PgBouncer logs in with) */
  serverUrl: string;
  /** `ignore_startup_parameters`: what clients may set at connect that PgBouncer drops */
  ignoreStartupParameters?: string[];
  poolSize?: number;
  timeoutMs?: number;
}

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * PgBouncer in transaction mode: every client statement outside a transaction, and every
 * transaction, may run on another server connection. Any client user is let in (`auth_type = any`)
 * and logs in to PostgreSQL as the server URL's user; no unix socket.
 */
export async function startPgbouncer(options: PgbouncerOptions): Promise<Pgbouncer> {
  const server = new URL(options.serverUrl);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'twofold-pgbouncer-'));
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || '5432'}`,
    `user=${quoted(decodeURIComponent(server.username || 'postgres'))}`,
    ...(server.password ? [`password=${quoted(decodeURIComponent(server.password))}`] : []),
  ].join(' ');
  const config = [
    '[databases]',
    `* = ${target}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 500',
    `default_pool_size = ${options.poolSize ?? 20}`,
    ...(options.ignoreStartupParameters?.length ? [`ignore_startup_parameters = ${options.ignoreStartupParameters.join(',')}`] : []),
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n');
  const file = join(dir, 'pgbouncer.ini');
  writeFileSync(file, config, { mode: 0o644 });
  // PgBouncer refuses to run as root: it is told to become nobody, who must read its configuration
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(PGBOUNCER_PATH, [...(asRoot ? ['-u', 'nobody'] : []), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const urlOf = (database: string) => {
    const url = new URL(options.serverUrl);
    url.hostname = '127.0.0.1';
    url.port = String(port);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // ready once a client gets an answer through it
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`pgbouncer exited with ${child.exitCode}:\n${output}`);
    }
    const client = new Client({ connectionString: urlOf(server.pathname.slice(1) || 'postgres') });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      break;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`pgbouncer did not answer within ${options.timeoutMs ?? 30_000} ms (${(error as Error).message}):\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { port, urlOf, output: () => output, stop };
}
