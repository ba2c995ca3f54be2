import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

export const TRACE_HEADER = 'mf-trace-id';
const ACCEPTABLE_TRACE_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface TracedRequest extends Request {
  traceId: string;
}

/** A caller's mf-trace-id is kept (when it is a sane token) so its logs and ours share one id. */
export function traceIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(TRACE_HEADER);
  const traceId = given && ACCEPTABLE_TRACE_ID.test(given) ? given : randomUUID();
  (req as TracedRequest).traceId = traceId;
  res.setHeader(TRACE_HEADER, traceId);
  next();
}

export function traceIdOf(req: Request): string {
  return (req as Partial<TracedRequest>).traceId ?? randomUUID();
}
