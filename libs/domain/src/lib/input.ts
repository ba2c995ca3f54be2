import { ValidationFailed } from './domain-error';

/** Whether a request field was given: absent and `null` both mean "not given" to the API's clients. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export const BODY_NOT_AN_OBJECT = 'The request body must be a JSON object.';

/**
 * The fields of a JSON object a client sent, read by name in any case: existing clients
 * send `Identity`, `identity` or `IDENTITY` for one field. When one field comes twice in different
 * cases, the first spelling wins. A value is still `unknown` here: each endpoint's parser judges it.
 */
export class InputFields {
  private constructor(private readonly byLowerName: ReadonlyMap<string, unknown>) {}

  /** A JSON object, or the refusal given. */
  static of(value: unknown, refusal: string): InputFields {
    if (!isPlainObject(value)) throw new ValidationFailed(refusal);
    const byLowerName = new Map<string, unknown>();
    for (const [key, raw] of Object.entries(value)) {
      const lower = key.toLowerCase();
      if (!byLowerName.has(lower)) byLowerName.set(lower, raw);
    }
    return new InputFields(byLowerName);
  }

  /** A request body: anything but a JSON object is refused. */
  static ofBody(body: unknown): InputFields {
    return InputFields.of(body, BODY_NOT_AN_OBJECT);
  }

  /** A nested object that may be left out (`Groups`, `EnrollmentLink`): absent or null is null. */
  static ofOptional(raw: unknown, field: string): InputFields | null {
    return isGiven(raw) ? InputFields.of(raw, `${field} must be an object.`) : null;
  }

  /** Like `of`, without a refusal: not an object reads as having no fields. */
  static lenient(value: unknown): InputFields {
    return isPlainObject(value) ? InputFields.of(value, BODY_NOT_AN_OBJECT) : new InputFields(new Map());
  }

  get(name: string): unknown {
    return this.byLowerName.get(name.toLowerCase());
  }
}
