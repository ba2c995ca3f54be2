import { IdentityFormat, InputFields, parseIdentityFormat, ValidationFailed, validateDisplayName } from '@twofold/domain';

/** PUT /settings/directory-sync. */
export function parseDirectorySync(body: unknown): boolean {
  const enabled = InputFields.ofBody(body).get('enabled');
  if (typeof enabled !== 'boolean') throw new ValidationFailed('enabled must be true or false.');
  return enabled;
}

/**
 * PUT /settings/branding: `displayName` a name by validateDisplayName's rules, or null for
 * the account's name again.
 */
export function parseBranding(body: unknown): string | null {
  const displayName = InputFields.ofBody(body).get('displayName');
  if (displayName === null) return null;
  if (displayName === undefined) throw new ValidationFailed('displayName is required (a name, or null for the account name).');
  return validateDisplayName(displayName);
}

/** PUT /settings/identity-format: `format`, `AsIs` or `Login` (any case). */
export function parseIdentityFormatBody(body: unknown): IdentityFormat {
  return parseIdentityFormat(InputFields.ofBody(body).get('format'));
}
