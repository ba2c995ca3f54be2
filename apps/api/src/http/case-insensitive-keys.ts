import { ValidationFailed } from '@twofold/domain';
import { getMetadataStorage } from 'class-validator';
import { nestedDtoOf } from './nested-dto';

type Plain = Record<string, unknown>;
type Class = new (...args: never[]) => unknown;

function declaredProperties(target: Class): string[] {
  const names = new Set<string>();
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    names.add(meta.propertyName);
  }
  return [...names];
}

/**
 * Existing clients send `Identity`, `identity` or `IDENTITY` for one field (CONTRACT §4). Renames each
 * incoming key to the DTO's own spelling when they match case-insensitively, through nested DTOs too.
 * Keys the DTO does not declare are left as they are (and stripped later by the whitelist).
 */
export function matchKeysToDto(value: unknown, target: Class): unknown {
  if (Array.isArray(value)) return value.map((item) => matchKeysToDto(item, target));
  if (value === null || typeof value !== 'object') return value;
  const byLowerName = new Map(declaredProperties(target).map((name) => [name.toLowerCase(), name]));
  const result: Plain = {};
  for (const [key, raw] of Object.entries(value as Plain)) {
    const property = byLowerName.get(key.toLowerCase()) ?? key;
    // the first spelling wins when a client sends one field twice in different cases
    if (property in result && property !== key) continue;
    const nested = nestedDtoOf(target, property);
    result[property] = nested ? matchKeysToDto(raw, nested) : raw;
  }
  return result;
}

/** For raw query objects: every key lower-cased, so `EventDate` and `eventdate` read alike. */
export function lowerCaseKeys(query: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const lower = key.toLowerCase();
    if (lower in result) {
      const existing = result[lower];
      result[lower] = ([] as unknown[]).concat(existing, value);
    } else {
      result[lower] = value;
    }
  }
  return result;
}

/** A query parameter that may be given at most once: its value as text, or undefined when absent. */
export function singleQueryValue(name: string, raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new ValidationFailed(`${name} must be given once.`);
  return String(raw);
}
