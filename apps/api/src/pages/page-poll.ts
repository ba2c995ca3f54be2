import { FastifyReply, FastifyRequest } from 'fastify';
import { traceIdOf } from '../http/trace-id';

/**
 * The answer to a page's script polling for a change (an approval decided, a Telegram chat bound).
 * Never cached. The script reads only `fields`. A 404 also carries `message` and `traceId`, like
 * every other error body of the API, so a client that logs the error can name it.
 */
export function sendPagePoll(
  req: FastifyRequest,
  res: FastifyReply,
  answer: { found: true; fields: object } | { found: false; fields: object; message: string },
): void {
  res.header('Cache-Control', 'no-store').header('Content-Type', 'application/json; charset=utf-8');
  if (answer.found) {
    res.code(200).send(answer.fields);
    return;
  }
  res.code(404).send({ ...answer.fields, message: answer.message, traceId: traceIdOf(req) });
}
