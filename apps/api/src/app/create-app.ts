import { VERSION_NEUTRAL, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExceptionFilter } from '../http/api-exception.filter';
import { DatabaseHealth } from '../http/database-health';
import { RouteRulesTable } from '../http/route-rules';
import { MAX_BODY_BYTES, registerBodyParsers } from '../http/body-parsing';
import { DtoValidationPipe } from '../http/dto-validation.pipe';
import { inputGuard } from '../http/input-guard';
import { serveApiDocs } from '../openapi/api-docs';
import { assignTraceId } from '../http/trace-id';
import { answerClientError, answerRouterRefusal } from '../http/framework-errors';
import { AppModule } from './app.module';
import { AppRuntime } from './infrastructure.module';
import { createLogger } from './logger';
import { addRequestLog, PinoNestLogger } from './request-log';
import { AppMetrics } from '../metrics/app-metrics';
import { ClientAddressResolver } from '../http/client-address';
import { DEFAULT_MAX_CONNECTIONS_PER_CLIENT, limitConnectionsPerClient } from '../http/connection-limit';
import { addHttpMetrics } from '../metrics/http-metrics';

/** A client that takes longer than this to send one request (headers and at most 1 MiB of body) is cut off. */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How late past REQUEST_TIMEOUT_MS a slow client may be cut. */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/**
 * NestJS on Fastify rather than Express: the same routes cost about half the CPU per answer
 * (`npm run bench:api`). The router keeps what clients written against the Express build rely
 * on: paths in any case, a trailing slash allowed, long path parameters.
 */
function fastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: 2048 },
    // no Nest middleware (`app.use`) is used: every cross-cutting step below is a Fastify hook
    skipMiddie: true,
    // the request id is our trace id (assignTraceId); fastify logs nothing (no logger), addRequestLog does
    requestIdHeader: false,
    // fastify's default is no limit, where a plain node server stops at 300 s
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Node checks the request timeout of its connections on this interval (default 30 s): a slow
    // client was cut after up to 90 s, not 60
    http: { connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS },
    // on SIGTERM, idle keep-alive connections are closed and new requests refused with 503
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: answerRouterRefusal,
    clientErrorHandler: answerClientError,
  });
}

/** The configured application, shared by main.ts and the integration tests. */
export async function createApp(runtime: AppRuntime): Promise<NestFastifyApplication> {
  const log = createLogger(runtime.config.logLevel, runtime.logDestination);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime), fastifyAdapter(), {
    bodyParser: false,
    logger: new PinoNestLogger(log),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  limitConnectionsPerClient(app.getHttpServer(), runtime.config.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT, (address) =>
    app.get(ClientAddressResolver).isTrusted(address),
  );
  const routeRules = app.get(RouteRulesTable);
  fastify.addHook('onRoute', (route) => routeRules.learn(route));
  fastify.addHook('onRequest', (req, reply, done) => {
    assignTraceId(req, reply);
    // responses may carry freshly generated secrets: never cache them anywhere
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  addRequestLog(fastify, log);
  if (runtime.config.metrics?.enabled !== false) addHttpMetrics(fastify, app.get(AppMetrics));
  registerBodyParsers(fastify);
  fastify.addHook('preValidation', (req, _reply, done) => {
    try {
      inputGuard(req);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: VERSION_NEUTRAL });
  app.useGlobalFilters(new ApiExceptionFilter(routeRules, app.get(DatabaseHealth)));
  app.useGlobalPipes(new DtoValidationPipe());
  if (runtime.config.apiDocs) serveApiDocs(app);
  return app;
}

/** Routes registered and the Fastify instance ready: what a test needs before its first request. */
export async function initApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
