import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

export const TRACE_HEADER = 'mf-trace-id';
/**
 * CONTRACT §8.6: any client string of 1-128 visible ASCII characters (clients send `rds-<uuid>`,
 * `md:<uuid>`); it is echoed in a header and logged as a JSON string, so nothing else gets through.
 */
const ACCEPTABLE_TRACE_ID = /^[\x21-\x7e]{1,128}$/;

export interface TracedRequest extends Request {
  traceId: string;
}

/** A caller's mf-trace-id is kept so its logs and ours share one id; anything else gets a fresh UUID. */
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
