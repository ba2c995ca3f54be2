import { assertNotSystemGroup, validateGroupName } from './groups';
import { DomainError } from './domain-error';

describe('group rules', () => {
  it('trims a valid name', () => {
    expect(validateGroupName('  Staff ')).toBe('Staff');
  });

  it.each(['AllUsers', 'allusers', ' ALLUSERS '])('refuses the system group name %p', (name) => {
    expect(() => validateGroupName(name)).toThrow(expect.objectContaining({ code: 'SYSTEM_GROUP' }));
  });

  it.each(['', '   ', 42, null, 'x'.repeat(101)])('refuses %p', (name) => {
    expect(() => validateGroupName(name)).toThrow(DomainError);
  });

  it('protects the system group from change', () => {
    expect(() => assertNotSystemGroup({ system: true })).toThrow(expect.objectContaining({ code: 'SYSTEM_GROUP' }));
    expect(() => assertNotSystemGroup({ system: false })).not.toThrow();
  });
});
