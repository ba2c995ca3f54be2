import { enrollmentTokenState, MAX_ENROLLMENT_LINK_TTL_MINUTES, validateEnrollmentTtl } from './enrollment';

describe('enrollment links', () => {
  const now = new Date('2026-05-20T10:00:00Z');
  const token = (over: Partial<{ expiresAt: Date; usedAt: Date | null; revokedAt: Date | null }> = {}) => ({
    expiresAt: new Date('2026-05-20T10:30:00Z'),
    usedAt: null,
    revokedAt: null,
    ...over,
  });

  it('is valid before it expires, and expired from its expiry on', () => {
    expect(enrollmentTokenState(token(), now)).toBe('valid');
    expect(enrollmentTokenState(token(), new Date('2026-05-20T10:30:00Z'))).toBe('expired');
  });

  it('is single-use and can be revoked by a newer link', () => {
    expect(enrollmentTokenState(token({ usedAt: now }), now)).toBe('used');
    expect(enrollmentTokenState(token({ revokedAt: now }), now)).toBe('revoked');
  });

  it('takes a Ttl in whole minutes, 1 day by default, 30 days at most', () => {
    expect(validateEnrollmentTtl(undefined)).toBe(1440);
    expect(validateEnrollmentTtl(15)).toBe(15);
    expect(validateEnrollmentTtl(MAX_ENROLLMENT_LINK_TTL_MINUTES)).toBe(43200);
    for (const bad of [0, -5, 1.5, '15', MAX_ENROLLMENT_LINK_TTL_MINUTES + 1]) {
      expect(() => validateEnrollmentTtl(bad)).toThrow('Ttl must be a whole number of minutes');
    }
  });
});
