import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { BODY_NOT_AN_OBJECT, isPlainObject, ValidationFailed } from '@twofold/domain';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, ValidationError } from 'class-validator';

type Class = ClassConstructor<object>;

function flattenMessages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => text.replace(error.property, path));
    return [...own, ...flattenMessages(error.children ?? [], path)];
  });
}

/**
 * Existing clients send `Name`, `name` or `NAME` for one field (CONTRACT §4): each key the DTO declares
 * in another case is renamed to the DTO's spelling, the first spelling winning like InputFields. Keys the
 * DTO does not declare are left for the whitelist to strip.
 */
function matchKeysToDto(value: Record<string, unknown>, target: Class): Record<string, unknown> {
  const declared = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const byLowerName = new Map(declared.map((meta) => [meta.propertyName.toLowerCase(), meta.propertyName]));
  const result: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const property = byLowerName.get(key.toLowerCase()) ?? key;
    if (!(property in result)) result[property] = raw;
  }
  return result;
}

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Object];

/**
 * Bodies bound to a class-validator DTO (groups and resources, whose rules are class-validator's): keys
 * matched case-insensitively, then validated with unknown keys stripped. A failure is a ValidationFailed
 * (400) with every message. Other endpoints parse their input with their own parser (`ParsedBody`).
 */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const target = metadata.metatype as Class | undefined;
    if (!target || PRIMITIVES.includes(target) || metadata.type !== 'body') return value;
    if (!isPlainObject(value)) throw new ValidationFailed(BODY_NOT_AN_OBJECT);
    const instance = plainToInstance(target, matchKeysToDto(value, target));
    const errors = await validate(instance, { whitelist: true, forbidUnknownValues: true });
    if (errors.length > 0) throw new ValidationFailed(flattenMessages(errors).join('; '));
    return instance;
  }
}
