import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { assignTraceId, TRACE_HEADER, traceIdOf } from './trace-id';

/**
 * Refusals Fastify's router makes before any hook runs: a path that does not percent-decode
 * (`/groups/%zz`, `%C0%AF`, `%ED%A0%80`) and a path parameter over `maxParamLength`. Fastify's own
 * answer is `{error, code, message, statusCode}` without a trace id (found by the fuzz run);
 * Every error body must be `{message, traceId}`. Which route it was is unknown here, so the
 * body is the plain one, never the model envelope.
 */
export function answerRouterRefusal(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  assignTraceId(req, reply);
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  reply
    .code(tooLong ? 414 : 400)
    .header('cache-control', 'no-store')
    .send({ message: tooLong ? 'A path parameter is too long.' : 'The path is not valid percent-encoded UTF-8.', traceId: traceIdOf(req) });
}

/**
 * Errors of Node's HTTP parser (headers over the limit, a malformed request line, a client too slow
 * to send its request): there is no request yet, so the trace id is a fresh one, sent in the header
 * and the body as on every other answer. Like Fastify's default handler, the connection is then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // a reset connection has nobody left to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const message =
    status === 431 ? 'Request headers too large.' : status === 408 ? 'The request took too long to arrive.' : 'Malformed HTTP request.';
  const traceId = randomUUID();
  const body = JSON.stringify({ message, traceId });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${TRACE_HEADER}: ${traceId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
