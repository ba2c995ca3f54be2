import { DomainError, ValidationFailed } from './domain-error';

/** Every account has this group and every user belongs to it. */
export const SYSTEM_GROUP_NAME = 'AllUsers';
export const GROUP_NAME_MAX_LENGTH = 100;
/** Group names one call may name (add or remove): bounds the work and the refusal message of one body. */
export const GROUP_NAMES_MAX_PER_REQUEST = 1000;

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

/**
 * Group names to add or remove (V2 GroupNames, and V1 Groups.Add/Remove): a list of group names, not empty unless
 * `allowEmpty`; the system group can be neither added again nor removed. Names are trimmed and
 * de-duplicated case-insensitively, like the groups' unique index.
 */
export function parseGroupNames(raw: unknown, field: string, options: { allowEmpty: boolean }): string[] {
  if (raw === undefined || raw === null) {
    if (options.allowEmpty) return [];
    throw new ValidationFailed(`${field} must not be empty.`);
  }
  if (!Array.isArray(raw) || raw.some((name) => typeof name !== 'string' || name.trim() === '')) {
    throw new ValidationFailed(`${field} must be an array of group names.`);
  }
  if (raw.length === 0 && !options.allowEmpty) throw new ValidationFailed(`${field} must not be empty.`);
  if (raw.length > GROUP_NAMES_MAX_PER_REQUEST)
    throw new ValidationFailed(`${field} must name at most ${GROUP_NAMES_MAX_PER_REQUEST} groups.`);
  const names: string[] = [];
  const seen = new Set<string>();
  for (const name of (raw as string[]).map((item) => item.trim())) {
    if (name.length > GROUP_NAME_MAX_LENGTH)
      throw new ValidationFailed(`A group name must be at most ${GROUP_NAME_MAX_LENGTH} characters.`);
    if (isSystemGroupName(name)) {
      throw new DomainError('SYSTEM_GROUP', `The system group ${SYSTEM_GROUP_NAME} can be neither added nor removed.`);
    }
    if (!seen.has(name.toLowerCase())) {
      seen.add(name.toLowerCase());
      names.push(name);
    }
  }
  return names;
}

/** Rule 5: each named group must exist in the account; returns the groups in the order named. */
export function requireExistingGroups<G extends { name: string }>(names: readonly string[], found: readonly G[]): G[] {
  const missing = names.filter((name) => !found.some((group) => group.name.toLowerCase() === name.toLowerCase()));
  if (missing.length > 0) throw new ValidationFailed(`Group not found: ${missing.join(', ')}.`);
  return names.map((name) => found.find((group) => group.name.toLowerCase() === name.toLowerCase()) as G);
}
