import { ADMIN_ROLES } from './administrators';
import { CONSOLE_PERMISSIONS, ConsolePermission, roleMay } from './console-roles';

/** The role table of the console, written out as a person reads it: ✓ where the role may. */
const TABLE: Record<ConsolePermission, string> = {
  //                 S1 S2 S3 S4 Admin
  'users.read': '    ✓  ✓  ✓  ✓  ✓',
  'users.support': ' .  ✓  ✓  ✓  ✓',
  'factors.manage': '.  .  ✓  ✓  ✓',
  'users.manage': '  .  .  .  ✓  ✓',
  'journal.read': '  .  .  .  ✓  ✓',
  'account.manage': '.  .  .  .  ✓',
};
const COLUMNS = ['Support 1', 'Support 2', 'Support 3', 'Support 4', 'Admin'] as const;

describe('the console role table', () => {
  it('covers every permission and every role', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CONSOLE_PERMISSIONS].sort());
    expect([...COLUMNS].sort()).toEqual([...ADMIN_ROLES].sort());
  });

  for (const permission of CONSOLE_PERMISSIONS) {
    const marks = TABLE[permission].trim().split(/\s+/);
    COLUMNS.forEach((role, column) => {
      const may = marks[column] === '✓';
      it(`${role} ${may ? 'may' : 'may not'} ${permission}`, () => {
        expect(roleMay(role, permission)).toBe(may);
      });
    });
  }

  it('gives an unknown or differently written role nothing', () => {
    for (const permission of CONSOLE_PERMISSIONS) {
      expect(roleMay('admin', permission)).toBe(false);
      expect(roleMay('Support 5', permission)).toBe(false);
      expect(roleMay('', permission)).toBe(false);
      expect(roleMay('constructor', permission)).toBe(false);
    }
  });
});
