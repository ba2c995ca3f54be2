import { VERSION_NEUTRAL, VersioningType } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NextFunction, Request, Response } from 'express';
import { ApiExceptionFilter } from '../http/api-exception.filter';
import { DtoValidationPipe } from '../http/dto-validation.pipe';
import { traceIdMiddleware } from '../http/trace-id';
import { inputGuard } from '../http/input-guard';
import { AppModule } from './app.module';
import { AppRuntime } from './infrastructure.module';
import { createLogger } from './logger';
import { PinoNestLogger, requestLog } from './request-log';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Refuses a declared oversize body before reading it, whatever its content type. */
function declaredBodyLimit(req: Request, _res: Response, next: NextFunction): void {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > MAX_BODY_BYTES) {
    next(Object.assign(new Error('request entity too large'), { type: 'entity.too.large', status: 413 }));
    return;
  }
  next();
}

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  // responses may carry freshly generated secrets: never cache them anywhere
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}

/** The configured application, shared by main.ts and the integration tests. */
export async function createApp(runtime: AppRuntime): Promise<NestExpressApplication> {
  const log = createLogger(runtime.config.logLevel, runtime.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRuntime(runtime), {
    bodyParser: false,
    logger: new PinoNestLogger(log),
    abortOnError: false,
  });
  app.disable('x-powered-by');
  // every answer is Cache-Control: no-store, so a validator would never be used: not computed (a hash of each body)
  app.set('etag', false);
  app.use(traceIdMiddleware, requestLog(log), securityHeaders, declaredBodyLimit);
  // not strict: a top-level string, number or null is JSON too, refused by the endpoint like any other
  // unusable body (on the access endpoints that is a 200 refusal, CONTRACT §8.1, not a parser 400)
  app.useBodyParser('json', { limit: MAX_BODY_BYTES, strict: false });
  app.useBodyParser('urlencoded', { limit: MAX_BODY_BYTES, extended: false });
  app.use(inputGuard);
  app.enableVersioning({ type: VersioningType.URI, defaultVersion: VERSION_NEUTRAL });
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(new DtoValidationPipe());
  return app;
}
