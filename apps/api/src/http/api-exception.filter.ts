import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@twofold/domain';
import { FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, DatabaseHealth } from './database-health';
import { Throttled, UnauthorizedWithoutChallenge } from './api-errors';
import { isNotJsonBody, unreadableBodyAnswer } from './body-parsing';
import { RouteRulesTable } from './route-rules';
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
    case 'IP_LIST_NAME_TAKEN':
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

/**
 * Errors of reading the body before any controller runs. Fastify's own (a body over the limit, a body
 * shorter than its Content-Length) reach the filter as HttpExceptions made by Nest from their status:
 * 413 is only ever the body limit.
 */
function bodyParserError(exception: unknown): { status: number; message: string } | undefined {
  const unreadable = unreadableBodyAnswer(exception);
  if (unreadable) return unreadable;
  if (exception instanceof HttpException && exception.getStatus() === HttpStatus.PAYLOAD_TOO_LARGE)
    return { status: 413, message: 'Request body exceeds 1 MiB.' };
  return undefined;
}

/**
 * On the POST endpoints that clients call at each sign-in, only these statuses say
 * "refused"; clients read any other non-2xx as an outage, and several then let the user in without a
 * second factor. Every other refusal there is answered 200 with `success: false`.
 */
const STATUSES_CLIENTS_READ = new Set<number>([HttpStatus.UNAUTHORIZED, HttpStatus.TOO_MANY_REQUESTS, HttpStatus.PAYLOAD_TOO_LARGE]);

/** The client closed the request before its body arrived in full. */
function clientAborted(req: FastifyRequest): boolean {
  const raw = req.raw as FastifyRequest['raw'] & { readableAborted?: boolean };
  return raw.readableAborted === true || raw.aborted;
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

  constructor(
    private readonly routeRules: RouteRulesTable,
    private readonly databaseHealth: DatabaseHealth,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const res = host.switchToHttp().getResponse<FastifyReply>();
    const traceId = traceIdOf(req);
    let status: number;
    let message: string;

    const parserError = bodyParserError(exception);
    // a client that hung up while sending its body fails the body reader with ECONNRESET, the errno of
    // a lost database connection too: only the database's own errors may mean an outage
    const aborted = clientAborted(req);
    // an outage is logged by DatabaseHealth once per change of state, not once per request
    const outage = !aborted && isOurFailure(exception) ? this.databaseHealth.failed(exception) : undefined;
    if (aborted) {
      // nobody is left to read the answer; it is not our failure, so nothing is logged
      status = HttpStatus.BAD_REQUEST;
      message = 'The request was not received completely.';
    } else if (outage !== undefined) {
      status = HttpStatus.SERVICE_UNAVAILABLE;
      message = DATABASE_UNAVAILABLE_MESSAGE;
      res.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    } else if (exception instanceof DomainError) {
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

    if (status === HttpStatus.UNAUTHORIZED && !(exception instanceof UnauthorizedWithoutChallenge))
      res.header('WWW-Authenticate', BASIC_CHALLENGE);
    if (exception instanceof Throttled) res.header('Retry-After', String(exception.retryAfterSeconds));
    res.header(TRACE_HEADER, traceId);

    const rules = this.routeRules.of(req);
    const endpoint = rules.signInCall;
    // an outage stays a 5xx there too: answered 200 `success: false` it would read as a refusal of the
    // user, and a client that lets users in when the API is unreachable is its operator's choice
    if (endpoint && status !== HttpStatus.INTERNAL_SERVER_ERROR && outage === undefined && !STATUSES_CLIENTS_READ.has(status)) {
      // a body that could not be read at all is the one 400 these clients expect ("malformed JSON"):
      // the parser's own errors, which Nest hands over as a BadRequestException (our refusals are DomainErrors)
      // (a form or text body is not unreadable: it is refused, as the sign-in calls refuse any unusable body)
      if ((parserError && !isNotJsonBody(exception)) || (exception instanceof HttpException && status === HttpStatus.BAD_REQUEST)) {
        res.status(HttpStatus.BAD_REQUEST).send({ model: null, success: false, message: 'Malformed JSON body.', traceId });
        return;
      }
      const refusal = endpoint === 'plain' ? { model: null, success: false, message } : endpoint(req.body, message);
      res.status(HttpStatus.OK).send({ ...refusal, traceId });
      return;
    }

    const body = rules.errorEnvelope === 'model' ? { model: null, success: false, message, traceId } : { message, traceId };
    res.status(status).send(body);
  }
}
