import { isGiven, ValidationFailed } from '@twofold/domain';
import { registerDecorator } from 'class-validator';

/** The refusal a libs/domain rule gives a value, or null when it accepts it. */
function refusalOf(rule: (raw: unknown) => unknown, value: unknown): string | null {
  try {
    rule(value);
    return null;
  } catch (error) {
    if (error instanceof ValidationFailed) return error.message;
    throw error;
  }
}

/**
 * A class-validator constraint for an optional field judged by a libs/domain rule, refused with the
 * rule's own message (the API's exact texts are what clients match, not class-validator's). Absent or null passes.
 */
export function FollowsDomainRule(rule: (raw: unknown) => unknown): PropertyDecorator {
  return (target, property) =>
    registerDecorator({
      name: 'followsDomainRule',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (value: unknown) => !isGiven(value) || refusalOf(rule, value) === null,
        defaultMessage: (args) => refusalOf(rule, args?.value) ?? '',
      },
    });
}
