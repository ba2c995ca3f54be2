import { Type } from 'class-transformer';

type Class = new (...args: never[]) => unknown;

const NESTED = new WeakMap<object, Map<string, () => Class>>();

/**
 * A property holding another DTO (or a list of them): class-transformer builds it as that class, and
 * the case-insensitive key matching (`matchKeysToDto`) renames its keys by that class's spelling too.
 * Recorded here, so the key matching reads our own table instead of class-transformer's internals.
 */
export function NestedDto(type: () => Class): PropertyDecorator {
  return (target, property) => {
    Type(type)(target, property);
    const byProperty = NESTED.get(target.constructor) ?? new Map<string, () => Class>();
    byProperty.set(String(property), type);
    NESTED.set(target.constructor, byProperty);
  };
}

/** The DTO class of a property declared with @NestedDto, on `target` or a class it extends. */
export function nestedDtoOf(target: Class, property: string): Class | undefined {
  for (let klass: unknown = target; typeof klass === 'function' && klass !== Function.prototype; klass = Object.getPrototypeOf(klass)) {
    const type = NESTED.get(klass as object)?.get(property);
    if (type) return type();
  }
  return undefined;
}
