import { ValidationFailed } from './domain-error';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

export interface Page {
  offset: number;
  limit: number;
}

function parseNonNegativeInteger(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (Array.isArray(raw)) throw new ValidationFailed(`${name} must be given once.`);
  const text = String(raw).trim();
  if (!/^\d{1,10}$/.test(text)) throw new ValidationFailed(`${name} must be a non-negative integer.`);
  return Number(text);
}

/** Offset default 0, limit default 100 and at most 1000; negative or non-integer is refused. */
export function parsePage(rawOffset: unknown, rawLimit: unknown): Page {
  const offset = parseNonNegativeInteger('offset', rawOffset) ?? 0;
  const limit = parseNonNegativeInteger('limit', rawLimit) ?? DEFAULT_PAGE_LIMIT;
  if (limit > MAX_PAGE_LIMIT) throw new ValidationFailed(`limit must not exceed ${MAX_PAGE_LIMIT}.`);
  return { offset, limit };
}
