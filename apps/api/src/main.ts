import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { systemClock } from '@twofold/domain';
import { AccountsRepository, connectDatabase } from '@twofold/persistence';
import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app/create-app';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, shutDown } from './app/shutdown';
import { createLogger, flushLogs } from './app/logger';

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
  const log = createLogger(config.logLevel);

  const database = await connectDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    applicationName: 'twofold-api',
    timeouts: config.databaseTimeouts,
    log: (message) => log.debug(message),
  });
  if (database.embedded) log.info({ dataDir: config.dataDir }, 'using the embedded PostgreSQL (DATABASE_URL is not set)');
  const dataSource = database.dataSource;
  const app = await createApp({ config, dataSource, clock: systemClock });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
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
      // the line an operator waits for on `docker stop`, written before the process ends
      flushLogs();
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await listenOnEveryInterface(app, config.port);
  log.info({ port: config.port, publicUrl: config.publicUrl }, 'Twofold API listening');

  if ((await app.get(AccountsRepository).count()) === 0) {
    log.info(
      'No account yet. Create one with: npm run --silent cli -- account create --name "My company" --owner-email you@example.com --enable-api --json',
    );
  }
  flushLogs();
}

main().catch((error) => {
  process.stderr.write(`twofold: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
