import { LoggerService } from '@nestjs/common';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { traceIdOf } from '../http/trace-id';
import { loggedUrl } from './logger';

/**
 * One line per request when its answer is sent: trace id, method, path (credentials in it cut by
 * `loggedUrl`), status, duration; never bodies or headers. Written here rather than by pino-http,
 * which cost a tenth of the API's CPU time per request (a child logger and serialisers for every
 * request, `npm run bench:api -- --profile`). A 5xx is logged as an error, a request whose
 * connection closed before its answer as a warning. Fastify's hooks see every request, those refused
 * before routing (400, 413, 415) included.
 */
export function addRequestLog(fastify: FastifyInstance, parent: Logger): void {
  // The lines below hold only these fields, the path already cut: the logger's redaction paths
  // (`*.secret`, …) can match nothing in them, and applying them made a line cost 3.1 µs instead of
  // 0.66 µs (a wildcard path runs on every field of every line).
  const log = parent.child({}, { redact: [] });
  const line = (req: FastifyRequest, reply: FastifyReply) => ({
    traceId: traceIdOf(req),
    method: req.method,
    url: loggedUrl(req.originalUrl),
    statusCode: reply.statusCode,
    responseTime: Math.round(reply.elapsedTime),
  });
  fastify.addHook('onResponse', (req, reply, done) => {
    if (reply.statusCode >= 500) log.error(line(req, reply), 'request failed');
    else if (log.isLevelEnabled('info')) log.info(line(req, reply), 'request completed');
    done();
  });
  fastify.addHook('onRequestAbort', (req, done) => {
    log.warn(
      { traceId: traceIdOf(req), method: req.method, url: loggedUrl(req.originalUrl) },
      'request aborted: the connection closed before the answer',
    );
    done();
  });
}

type Level = 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal';

/**
 * Nest's start-up chatter: every module initialised, every controller and route mapped, "started"
 * (130 lines for this API). Logged at debug: at info a start shows our own few lines (the database,
 * "listening", how to provision the first account) instead of burying them. Their warnings and
 * errors keep their level.
 */
export const FRAMEWORK_BOOT_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * Nest's own messages (startup, `new Logger(name)` in services and filters) into the same pino logger.
 * Nest passes the logger's name as the last parameter; a first parameter that is an object is merged
 * into the line, as pino takes it (`log.error({ traceId, err }, 'message')`).
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    if (message instanceof Error) {
      this.pino[level]({ context, err: message }, typeof rest[0] === 'string' ? rest[0] : message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ context, ...(message as Record<string, unknown>) }, typeof rest[0] === 'string' ? rest[0] : undefined);
    } else if (rest.length > 0) {
      // Nest's error(message, stack, context)
      this.pino[level]({ context, stack: rest[0] }, String(message));
    } else {
      this.pino[level]({ context }, String(message));
    }
  }

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
}
