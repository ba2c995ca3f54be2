import { IdentityFormat, InputFields, isUuid, parseIdentityFormat, ValidationFailed, validateDisplayName } from '@twofold/domain';
import { QueryParameters } from '../http/parsed-input';

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

/** `POST /settings/identity-format/apply?progressId=<uuid>`: the id the caller will read the progress by; none without it. */
export function parseApplyQuery(query: QueryParameters): string | null {
  const id = query.single('progressId');
  if (id === undefined) return null;
  if (!isUuid(id)) throw new ValidationFailed('progressId must be a UUID.');
  return id.toLowerCase();
}

/** `GET /settings/identity-format/dry-run?format=Login`: the format to plan for, the account's without one. */
export function parseDryRunQuery(query: QueryParameters): IdentityFormat | null {
  const format = query.single('format');
  return format === undefined ? null : parseIdentityFormat(format);
}
