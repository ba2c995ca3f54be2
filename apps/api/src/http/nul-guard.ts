import { ValidationFailed } from '@twofold/domain';
import { NextFunction, Request, Response } from 'express';

/**
 * A UTF-16 surrogate without its partner: JSON can carry it (`"\ud800"`), UTF-8 cannot. PostgreSQL's
 * jsonb refuses its escape (a 500 from the journal's additionalFields or claims) and text columns
 * would silently store U+FFFD instead of what was sent.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const unstorable = (text: string): boolean => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

/**
 * Whether any key or string value of a parsed body or query holds U+0000 or an unpaired surrogate
 * (walked without recursion).
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (unstorable(item)) return true;
    } else if (Array.isArray(item)) {
      // one push per item: spreading a large array into push() overflows the stack (a 500)
      for (const nested of item) pending.push(nested);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, nested] of Object.entries(item)) {
        if (unstorable(key)) return true;
        pending.push(nested);
      }
    }
  }
  return false;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000 nor an unpaired surrogate: such input is refused with
 * 400 before any handler runs, so that it never reaches the database as a 500 (CONTRACT §4: "500 never for bad input").
 * Registered after the body parsers.
 */
export function nulGuard(req: Request, _res: Response, next: NextFunction): void {
  if (containsNul(req.body) || containsNul(req.query)) {
    next(new ValidationFailed('Text must not contain the character U+0000 or an unpaired UTF-16 surrogate.'));
    return;
  }
  next();
}
