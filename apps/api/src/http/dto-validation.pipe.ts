import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { BODY_NOT_AN_OBJECT, isPlainObject, ValidationFailed } from '@twofold/domain';
import { getMetadataStorage, validateSync, ValidationError } from 'class-validator';

type Class<T extends object = object> = new () => T;

const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

/**
 * One sentence per field: `name is required.` for a field left out, else the first rule it breaks
 * (a missing name broke three at once, answered as three run-on messages).
 */
function flattenMessages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    // decorators are applied bottom-up, so the rule written first in the DTO (its type) comes last
    const first = Object.values(error.constraints ?? {}).at(-1);
    const own =
      first === undefined ? [] : [error.value === undefined ? `${path} is required.` : sentence(first.replace(error.property, path))];
    return [...own, ...flattenMessages(error.children ?? [], path)];
  });
}

/**
 * The DTO built from a body: existing clients send `Name`, `name` or `NAME` for one field,
 * so each key is matched to the DTO's spelling in any case, the first spelling winning like InputFields.
 * Only declared properties are copied, as plain values: no key of the body (`constructor`, `__proto__`,
 * at any depth) is ever used as anything but data, and nothing nested is turned into an object of ours.
 */
function dtoOf(value: Record<string, unknown>, target: Class): object {
  const declared = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const byLowerName = new Map(declared.map((meta) => [meta.propertyName.toLowerCase(), meta.propertyName]));
  const dto = new target() as Record<string, unknown>;
  const taken = new Set<string>();
  for (const [key, raw] of Object.entries(value)) {
    const property = byLowerName.get(key.toLowerCase());
    if (property === undefined || taken.has(property)) continue;
    taken.add(property);
    Object.defineProperty(dto, property, { value: raw, enumerable: true, writable: true, configurable: true });
  }
  return dto;
}

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Object];

/**
 * A parser of bodies bound to a class-validator DTO (groups and resources, whose rules are
 * class-validator's), for `@Input('body', parseDto(Dto))`: keys matched case-insensitively, undeclared
 * keys left out, then validated. A failure is a ValidationFailed (400) with one message per field.
 */
export function parseDto<T extends object>(target: Class<T>): (body: unknown) => T {
  return (body) => {
    if (!isPlainObject(body)) throw new ValidationFailed(BODY_NOT_AN_OBJECT);
    const instance = dtoOf(body, target) as T;
    const errors = validateSync(instance, { forbidUnknownValues: true });
    if (errors.length > 0) throw new ValidationFailed(flattenMessages(errors).join(' '));
    return instance;
  };
}

/** A `@Body()` parameter typed by a DTO class, parsed as parseDto does (no endpoint of ours declares one: they use @Input). */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const target = metadata.metatype as Class | undefined;
    if (!target || PRIMITIVES.includes(target) || metadata.type !== 'body') return value;
    return parseDto(target)(value);
  }
}
