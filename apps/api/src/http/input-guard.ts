import { ValidationFailed } from '@twofold/domain';
import { FastifyRequest } from 'fastify';

/**
 * Nesting allowed in a parsed body: far more than any body of the API (claims included) needs, far
 * less than what overflows the stack of recursive code behind it (JSON.stringify of claims,
 * class-transformer): 1 MiB of `[` parses fine and then crashed those as a 500.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * A UTF-16 surrogate without its partner: JSON can carry it (`"\ud800"`), UTF-8 cannot. PostgreSQL's
 * jsonb refuses its escape (a 500 from the journal's additionalFields or claims) and text columns
 * would silently store U+FFFD instead of what was sent.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const unstorable = (text: string): boolean => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

export type InputProblem = 'tooDeep' | 'unstorable';

/**
 * What makes a parsed body or query unusable, found in one walk without recursion: nesting past
 * `maxDepth` (reported first, as it ends the walk), or a key or string PostgreSQL cannot store
 * (U+0000, an unpaired surrogate).
 */
export function inputProblem(value: unknown, maxDepth: number): InputProblem | null {
  let problem: InputProblem | null = null;
  const pending: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  while (pending.length > 0) {
    const { item, depth } = pending.pop() as { item: unknown; depth: number };
    if (typeof item === 'string') {
      if (unstorable(item)) problem = 'unstorable';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= maxDepth) return 'tooDeep';
    // one push per item: spreading a large array into push() overflows the stack (a 500)
    if (Array.isArray(item)) {
      for (const nested of item) pending.push({ item: nested, depth: depth + 1 });
    } else {
      for (const [key, nested] of Object.entries(item)) {
        if (unstorable(key)) problem = 'unstorable';
        pending.push({ item: nested, depth: depth + 1 });
      }
    }
  }
  return problem;
}

/** The messages of the refusals, also the examples of the API docs. */
export const REFUSALS: Record<InputProblem, string> = {
  tooDeep: `The request body must not be nested more than ${MAX_BODY_DEPTH} levels deep.`,
  unstorable: 'Text must not contain the character U+0000 or an unpaired UTF-16 surrogate.',
};

/**
 * Refuses (400) a body nested deeper than MAX_BODY_DEPTH, and any body, query or path parameter text
 * PostgreSQL cannot hold (a path id is journaled before it is looked up), before any handler runs: such input must never reach the database as a 500
 * (a 500 is for our bugs, never for bad input). A `preValidation` hook: it runs once the body is parsed.
 */
export function inputGuard(req: FastifyRequest): void {
  const problem = inputProblem(req.body, MAX_BODY_DEPTH) ?? inputProblem(req.query, MAX_BODY_DEPTH) ?? inputProblem(req.params, 1);
  if (problem) throw new ValidationFailed(REFUSALS[problem]);
}
