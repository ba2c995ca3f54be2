import { DomainError, ValidationFailed } from './domain-error';

/** Every account has this group and every user belongs to it (SPEC.md "User"). */
export const SYSTEM_GROUP_NAME = 'AllUsers';
export const GROUP_NAME_MAX_LENGTH = 100;

export function isSystemGroupName(name: string): boolean {
  return name.trim().toLowerCase() === SYSTEM_GROUP_NAME.toLowerCase();
}

export function validateGroupName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new ValidationFailed('name must be a non-empty string.');
  const name = raw.trim();
  if (name.length > GROUP_NAME_MAX_LENGTH) {
    throw new ValidationFailed(`name must be at most ${GROUP_NAME_MAX_LENGTH} characters.`);
  }
  if (isSystemGroupName(name)) throw new DomainError('SYSTEM_GROUP', `${SYSTEM_GROUP_NAME} is a system group name.`);
  return name;
}

export function assertNotSystemGroup(group: { system: boolean }): void {
  if (group.system) throw new DomainError('SYSTEM_GROUP', `The system group ${SYSTEM_GROUP_NAME} cannot be changed.`);
}
