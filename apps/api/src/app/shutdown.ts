import { Server } from 'node:http';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'pino';

export interface ShutdownOptions {
  /** past it, sockets still open are destroyed and shutdown goes on */
  timeoutMs: number;
  log: Logger;
  /** after the HTTP server: the pool the requests in flight used */
  closeDatabase?: () => Promise<void>;
}

/**
 * What SIGTERM and SIGINT do (main.ts), and what the shutdown test runs. The server stops accepting;
 * Fastify answers every request that arrives after this on a kept-alive socket with 503 and
 * `Connection: close` (`return503OnClosing`), closes idle keep-alive sockets, and the requests in
 * flight finish with their normal answers. A request that does not finish within `timeoutMs` loses
 * its socket, so the process ends within a bound whatever a client or the database does.
 */
export async function shutDown(
  app: NestFastifyApplication,
  { timeoutMs, log, closeDatabase }: ShutdownOptions,
): Promise<'complete' | 'forced'> {
  const server = app.getHttpServer() as Server;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'forced'>((resolve) => {
    timer = setTimeout(() => resolve('forced'), timeoutMs);
  });
  const closed = app.close().then(() => 'complete' as const);
  const outcome = await Promise.race([closed, deadline]);
  clearTimeout(timer);
  if (outcome === 'forced') {
    log.warn({ timeoutMs }, 'shutdown: requests still in flight after the timeout, closing their connections');
    server.closeAllConnections();
  }
  try {
    await closeDatabase?.();
  } catch (error) {
    log.error({ err: error }, 'shutdown: closing the database failed');
  }
  log.info({ outcome }, 'shutdown complete');
  return outcome;
}
