import { ValidationFailed } from '@twofold/domain';
import { NextFunction, Request, Response } from 'express';

/**
 * Nesting allowed in a parsed body: far more than any body of the API (claims included) needs, far
 * less than what overflows the stack of recursive code behind it (JSON.stringify of claims,
 * class-transformer): 1 MiB of `[` parses fine and then crashed those as a 500.
 */
export const MAX_BODY_DEPTH = 32;

/** The nesting depth of a parsed JSON value, walked without recursion; stops once past `limit`. */
export function exceedsDepth(value: unknown, limit: number): boolean {
  const pending: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  while (pending.length > 0) {
    const { item, depth } = pending.pop() as { item: unknown; depth: number };
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const nested of Array.isArray(item) ? item : Object.values(item)) {
      if (nested !== null && typeof nested === 'object') pending.push({ item: nested, depth: depth + 1 });
    }
  }
  return false;
}

/** Refuses (400) a body nested deeper than MAX_BODY_DEPTH before any handler runs. After the body parsers. */
export function depthGuard(req: Request, _res: Response, next: NextFunction): void {
  if (exceedsDepth(req.body, MAX_BODY_DEPTH)) {
    next(new ValidationFailed(`The request body must not be nested more than ${MAX_BODY_DEPTH} levels deep.`));
    return;
  }
  next();
}
