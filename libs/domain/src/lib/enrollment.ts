import { ValidationFailed } from './domain-error';

/** An administrator's invitation link stays valid for 7 days. */
export const ADMIN_INVITATION_TTL_MINUTES = 7 * 24 * 60;
/** A user's enrollment link: Ttl in minutes, 1 day when omitted, at most 30 days. */
export const DEFAULT_ENROLLMENT_LINK_TTL_MINUTES = 24 * 60;
export const MAX_ENROLLMENT_LINK_TTL_MINUTES = 30 * 24 * 60;

export function validateEnrollmentTtl(raw: unknown): number {
  if (raw === undefined || raw === null) return DEFAULT_ENROLLMENT_LINK_TTL_MINUTES;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > MAX_ENROLLMENT_LINK_TTL_MINUTES) {
    throw new ValidationFailed(`Ttl must be a whole number of minutes from 1 to ${MAX_ENROLLMENT_LINK_TTL_MINUTES}.`);
  }
  return raw;
}

export type EnrollmentTokenState = 'valid' | 'used' | 'revoked' | 'expired';

/** A link works once, until it expires or a newer link for the same person replaces it. */
export function enrollmentTokenState(
  token: { expiresAt: Date; usedAt: Date | null; revokedAt: Date | null },
  now: Date,
): EnrollmentTokenState {
  if (token.usedAt) return 'used';
  if (token.revokedAt) return 'revoked';
  if (now.getTime() >= token.expiresAt.getTime()) return 'expired';
  return 'valid';
}
