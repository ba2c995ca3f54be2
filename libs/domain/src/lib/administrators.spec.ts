import {
  assertInvitable,
  assertKeepsScopeAdmin,
  isScopeAdmin,
  statusAfterSet,
  unlockedStatus,
  validateAdminEmail,
  validateAdminName,
  validateAdminRole,
  validateSettableAdminStatus,
} from './administrators';
import { DomainError, ErrorMessages } from './domain-error';

const code = (c: string) => expect.objectContaining({ code: c });

describe('administrator rules', () => {
  describe('roles', () => {
    it.each(['Admin', 'Support 1', 'Support 2', 'Support 3', 'Support 4'])('accepts %p', (role) => {
      expect(validateAdminRole(role)).toBe(role);
    });

    it.each(['admin', 'Support 5', 'Support1', ' Admin', '', undefined, null, 1, ['Admin']])('refuses %p as "Unknown role."', (role) => {
      expect(() => validateAdminRole(role)).toThrow(new DomainError('UNKNOWN_ROLE', ErrorMessages.unknownRole));
      expect(() => validateAdminRole(role)).toThrow('Unknown role.');
    });
  });

  describe('e-mail and name', () => {
    it('trims and keeps the case of the e-mail', () => {
      expect(validateAdminEmail('  Ann.Lee@Example.COM ')).toBe('Ann.Lee@Example.COM');
    });

    it.each([
      '',
      '  ',
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'a b@example.com',
      'a@b@example.com',
      `${'a'.repeat(250)}@x.io`,
      42,
      null,
    ])('refuses the e-mail %p', (email) => {
      expect(() => validateAdminEmail(email)).toThrow(code('VALIDATION'));
    });

    it('trims a name and refuses an empty or overlong one', () => {
      expect(validateAdminName(' Ann ')).toBe('Ann');
      expect(() => validateAdminName('  ')).toThrow(code('VALIDATION'));
      expect(() => validateAdminName(7)).toThrow(code('VALIDATION'));
      expect(() => validateAdminName('x'.repeat(201))).toThrow(code('VALIDATION'));
    });

    it('accepts only Locked and Active as a status to set', () => {
      expect(validateSettableAdminStatus('Locked')).toBe('Locked');
      expect(validateSettableAdminStatus('Active')).toBe('Active');
      for (const bad of ['Pending', 'TemporaryLocked', 'locked', '', 1]) {
        expect(() => validateSettableAdminStatus(bad)).toThrow(code('VALIDATION'));
      }
    });
  });

  describe('state machine', () => {
    it.each(['Locked', 'TemporaryLocked'])('unlocks %s to Active, or to Pending when never activated', (status) => {
      expect(unlockedStatus({ status, activated: true })).toBe('Active');
      expect(unlockedStatus({ status, activated: false })).toBe('Pending');
    });

    it.each(['Pending', 'Active'])('refuses to unlock from %s with the exact message', (status) => {
      expect(() => unlockedStatus({ status, activated: true })).toThrow(
        new DomainError('ADMIN_UNLOCK_STATE', 'Cannot unlock. Admin should be in one of the following states: Locked, TemporaryLocked'),
      );
    });

    it('sets a status: Locked locks from anywhere, Active unlocks, the current status changes nothing', () => {
      expect(statusAfterSet({ status: 'Active', activated: true }, 'Locked')).toBe('Locked');
      expect(statusAfterSet({ status: 'Pending', activated: false }, 'Locked')).toBe('Locked');
      expect(statusAfterSet({ status: 'TemporaryLocked', activated: true }, 'Locked')).toBe('Locked');
      expect(statusAfterSet({ status: 'Locked', activated: true }, 'Locked')).toBe('Locked');
      expect(statusAfterSet({ status: 'Locked', activated: false }, 'Active')).toBe('Pending');
      expect(statusAfterSet({ status: 'TemporaryLocked', activated: true }, 'Active')).toBe('Active');
      expect(statusAfterSet({ status: 'Active', activated: true }, 'Active')).toBe('Active');
      expect(() => statusAfterSet({ status: 'Pending', activated: false }, 'Active')).toThrow(code('ADMIN_UNLOCK_STATE'));
    });
  });

  describe('last scope admin', () => {
    const admin = { role: 'Admin', status: 'Active' };

    it('is an Active administrator with role Admin', () => {
      expect(isScopeAdmin(admin)).toBe(true);
      expect(isScopeAdmin({ role: 'Admin', status: 'Pending' })).toBe(false);
      expect(isScopeAdmin({ role: 'Admin', status: 'Locked' })).toBe(false);
      expect(isScopeAdmin({ role: 'Support 1', status: 'Active' })).toBe(false);
    });

    it('cannot be deleted or lose the role Admin', () => {
      expect(() => assertKeepsScopeAdmin(admin, null, 1)).toThrow(
        new DomainError('LAST_SCOPE_ADMIN', 'Cannot change role of last scope admin.'),
      );
      expect(() => assertKeepsScopeAdmin(admin, { role: 'Support 2', status: 'Active' }, 1)).toThrow(code('LAST_SCOPE_ADMIN'));
      expect(() => assertKeepsScopeAdmin(admin, { role: 'Support 2', status: 'Locked' }, 1)).toThrow(code('LAST_SCOPE_ADMIN'));
    });

    it('cannot be locked', () => {
      expect(() => assertKeepsScopeAdmin(admin, { role: 'Admin', status: 'Locked' }, 1)).toThrow(
        new DomainError('LAST_SCOPE_ADMIN_LOCK', 'Cannot lock last scope admin.'),
      );
    });

    it('allows every change while another scope admin remains, and any change of other administrators', () => {
      expect(() => assertKeepsScopeAdmin(admin, null, 2)).not.toThrow();
      expect(() => assertKeepsScopeAdmin(admin, { role: 'Admin', status: 'Locked' }, 2)).not.toThrow();
      expect(() => assertKeepsScopeAdmin(admin, { role: 'Admin', status: 'Active' }, 1)).not.toThrow();
      expect(() => assertKeepsScopeAdmin({ role: 'Admin', status: 'Pending' }, null, 0)).not.toThrow();
      expect(() => assertKeepsScopeAdmin({ role: 'Support 1', status: 'Active' }, null, 1)).not.toThrow();
    });
  });

  it('re-sends an invitation only to a Pending administrator', () => {
    expect(() => assertInvitable({ status: 'Pending' })).not.toThrow();
    for (const status of ['Active', 'Locked', 'TemporaryLocked']) {
      expect(() => assertInvitable({ status })).toThrow(
        new DomainError('VALIDATION', `An invitation can only be re-sent to a Pending administrator; this one is ${status}.`),
      );
    }
  });
});
