import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '@twofold/domain';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { matchKeysToDto } from './case-insensitive-keys';

function flattenMessages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => text.replace(error.property, path));
    return [...own, ...flattenMessages(error.children ?? [], path)];
  });
}

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Object];

/**
 * Bodies and queries bound to a DTO class: keys matched case-insensitively, then class-validator with
 * unknown keys stripped. A failure is a ValidationFailed (400) with every message.
 */
@Injectable()
export class DtoValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const target = metadata.metatype;
    if (!target || PRIMITIVES.includes(target) || (metadata.type !== 'body' && metadata.type !== 'query')) {
      return value;
    }
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ValidationFailed('The request body must be a JSON object.');
    }
    const instance = plainToInstance(target, matchKeysToDto(value ?? {}, target as never)) as object;
    const errors = await validate(instance, { whitelist: true, forbidUnknownValues: true });
    if (errors.length > 0) throw new ValidationFailed(flattenMessages(errors).join('; '));
    return instance;
  }
}
