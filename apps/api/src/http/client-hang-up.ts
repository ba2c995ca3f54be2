import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { FastifyReply } from 'fastify';

/**
 * An AbortSignal that fires when the client closes the connection before its answer was written: a
 * call held open while a person decides (an approval) ends its request then, so a later approval
 * grants nothing to a caller that is gone.
 */
export const ClientHangUp = createParamDecorator((_: unknown, context: ExecutionContext): AbortSignal => {
  const response = context.switchToHttp().getResponse<FastifyReply>().raw;
  const hangUp = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) hangUp.abort();
  });
  return hangUp.signal;
});
