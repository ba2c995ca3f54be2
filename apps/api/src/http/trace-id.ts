import { randomUUID } from 'node:crypto';
import { FastifyReply, FastifyRequest } from 'fastify';

export const TRACE_HEADER = 'mf-trace-id';
/**
 * Any client string of 1-128 visible ASCII characters (clients send `rds-<uuid>`,
 * `md:<uuid>`); it is echoed in a header and logged as a JSON string, so nothing else gets through.
 */
const ACCEPTABLE_TRACE_ID = /^[\x21-\x7e]{1,128}$/;

interface TracedRequest extends FastifyRequest {
  traceId?: string;
}

/**
 * A caller's mf-trace-id is kept so its logs and ours share one id; anything else gets a fresh UUID.
 * An `onRequest` hook: it runs before routing, so answers of unknown paths carry the id too.
 */
export function assignTraceId(req: FastifyRequest, reply: FastifyReply): void {
  const given = req.headers[TRACE_HEADER];
  const traceId = typeof given === 'string' && ACCEPTABLE_TRACE_ID.test(given) ? given : randomUUID();
  (req as TracedRequest).traceId = traceId;
  reply.header(TRACE_HEADER, traceId);
}

export function traceIdOf(req: FastifyRequest): string {
  return (req as TracedRequest).traceId ?? randomUUID();
}
