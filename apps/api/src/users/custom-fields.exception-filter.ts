import { ArgumentsHost, Catch, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ApiExceptionFilter, isOurFailure } from '../http/api-exception.filter';
import { TRACE_HEADER, traceIdOf } from '../http/trace-id';

/**
 * An internal failure in the custom field operations answers 200 with
 * `{success: false, message}` (clients of that generation read `success`, not the status). Refusals
 * of input keep their 400 through the global filter.
 */
@Catch()
export class CustomFieldsExceptionFilter extends ApiExceptionFilter {
  private readonly log = new Logger('CustomFields');

  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!isOurFailure(exception)) return super.catch(exception, host);
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const res = host.switchToHttp().getResponse<FastifyReply>();
    const traceId = traceIdOf(req);
    this.log.error({ traceId, err: exception }, 'custom fields could not be changed');
    res.header(TRACE_HEADER, traceId);
    res.status(200).send({ success: false, message: 'Custom fields could not be changed. Quote the trace id when reporting it.', traceId });
  }
}
