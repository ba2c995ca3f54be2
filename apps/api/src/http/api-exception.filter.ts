import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@twofold/domain';
import { Request, Response } from 'express';
import { TooManyAttempts } from './api-errors';
import { usesModelEnvelope } from './envelope';
import { TRACE_HEADER, traceIdOf } from './trace-id';

export const BASIC_CHALLENGE = 'Basic realm="api"';

export function statusOfDomainError(code: DomainErrorCode): number {
  switch (code) {
    case 'VALIDATION':
    case 'UNKNOWN_ROLE':
    case 'LAST_SCOPE_ADMIN':
    case 'LAST_SCOPE_ADMIN_LOCK':
    case 'ADMIN_UNLOCK_STATE':
    case 'USERS_QUOTA_EXCEEDED':
    case 'DIRECTORY_SYNC_ENABLED':
    case 'SYSTEM_GROUP':
      return HttpStatus.BAD_REQUEST;
    case 'ADMIN_EMAIL_TAKEN':
      return HttpStatus.FORBIDDEN;
    case 'NOT_FOUND':
      return HttpStatus.NOT_FOUND;
    case 'USER_IDENTITY_TAKEN':
    case 'GROUP_NAME_TAKEN':
      return HttpStatus.CONFLICT;
    case 'MAIL_NOT_SENT':
      return HttpStatus.SERVICE_UNAVAILABLE;
  }
}

function messageOfHttpException(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}

/** Errors thrown by express' body parser before any controller runs. */
function bodyParserError(exception: unknown): { status: number; message: string } | undefined {
  const type = (exception as { type?: unknown })?.type;
  if (type === 'entity.parse.failed') return { status: 400, message: 'Malformed JSON body.' };
  if (type === 'entity.too.large') return { status: 413, message: 'Request body exceeds 1 MiB.' };
  if (typeof type === 'string' && type.startsWith('encoding.') || type === 'charset.unsupported') {
    return { status: 415, message: 'Unsupported body encoding.' };
  }
  return undefined;
}

/** Neither a refusal of the input nor a protocol error: our own failure, answered as 500 and logged. */
export function isOurFailure(exception: unknown): boolean {
  return !(exception instanceof DomainError) && !(exception instanceof HttpException) && bodyParserError(exception) === undefined;
}

/**
 * The one place that turns an exception into a response: stable status per domain code, the
 * envelope of the endpoint, the trace id. Anything unknown is our bug: 500, logged, no detail leaked.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const traceId = traceIdOf(req);
    let status: number;
    let message: string;

    const parserError = bodyParserError(exception);
    if (exception instanceof DomainError) {
      status = statusOfDomainError(exception.code);
      message = exception.message;
    } else if (parserError) {
      ({ status, message } = parserError);
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = messageOfHttpException(exception);
    } else {
      status = HttpStatus.INTERNAL_SERVER_ERROR;
      message = 'Internal error. Quote the trace id when reporting it.';
      this.logger.error({ traceId, err: exception }, 'unhandled error');
    }

    if (status === HttpStatus.UNAUTHORIZED) res.setHeader('WWW-Authenticate', BASIC_CHALLENGE);
    if (exception instanceof TooManyAttempts) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    res.setHeader(TRACE_HEADER, traceId);
    const body = usesModelEnvelope(req.originalUrl ?? req.url)
      ? { model: null, success: false, message, traceId }
      : { message, traceId };
    res.status(status).json(body);
  }
}
