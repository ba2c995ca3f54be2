import { InputFields, ValidationFailed } from '@twofold/domain';

/** PUT /settings/directory-sync (CONTRACT §6). */
export function parseDirectorySync(body: unknown): boolean {
  const enabled = InputFields.ofBody(body).get('enabled');
  if (typeof enabled !== 'boolean') throw new ValidationFailed('enabled must be true or false.');
  return enabled;
}
