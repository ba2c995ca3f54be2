import { ValidationFailed } from '@twofold/domain';
import { NextFunction, Request, Response } from 'express';

/** Whether any key or string value of a parsed body or query holds U+0000 (walked without recursion). */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      // one push per item: spreading a large array into push() overflows the stack (a 500)
      for (const nested of item) pending.push(nested);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, nested] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000: such input is refused with 400 before any handler
 * runs, so that it never reaches the database as a 500 (CONTRACT §4: "500 never for bad input").
 * Registered after the body parsers.
 */
export function nulGuard(req: Request, _res: Response, next: NextFunction): void {
  if (containsNul(req.body) || containsNul(req.query)) {
    next(new ValidationFailed('Text must not contain the character U+0000.'));
    return;
  }
  next();
}
