import { assertNotSystemGroup, GROUP_NAMES_MAX_PER_REQUEST, parseGroupNames, requireExistingGroups, validateGroupName } from './groups';
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

describe('group add and remove', () => {
  it('GroupNames must not be empty', () => {
    expect(() => parseGroupNames([], 'GroupNames', { allowEmpty: false })).toThrow('GroupNames must not be empty.');
    expect(() => parseGroupNames(undefined, 'GroupNames', { allowEmpty: false })).toThrow('GroupNames must not be empty.');
    expect(() => parseGroupNames([''], 'GroupNames', { allowEmpty: false })).toThrow('GroupNames must be an array of group names.');
    expect(parseGroupNames(undefined, 'Groups.Add', { allowEmpty: true })).toEqual([]);
  });

  it('the system group AllUsers can be neither added again nor removed', () => {
    expect(() => parseGroupNames(['Staff', 'allusers'], 'GroupNames', { allowEmpty: false })).toThrow(
      expect.objectContaining({ code: 'SYSTEM_GROUP', message: 'The system group AllUsers can be neither added nor removed.' }),
    );
  });

  it('each named group must exist in the account', () => {
    const found = [{ id: '1', name: 'Staff' }];
    expect(requireExistingGroups(['staff'], found)).toEqual(found);
    expect(() => requireExistingGroups(['Staff', 'Ghosts'], found)).toThrow('Group not found: Ghosts.');
  });

  it('names are trimmed and de-duplicated case-insensitively', () => {
    expect(parseGroupNames([' Staff ', 'STAFF', 'Ops'], 'GroupNames', { allowEmpty: false })).toEqual(['Staff', 'Ops']);
  });

  it('reads each name a bounded number of times: linear in the list, refused past the limit', () => {
    /** an array that counts how often its items are read */
    const counting = (items: string[]) => {
      let reads = 0;
      const proxy = new Proxy(items, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
          return Reflect.get(target, key, receiver);
        },
      });
      return { proxy, reads: () => reads };
    };
    const names = (n: number) => Array.from({ length: n }, (_, i) => `group-${i}`);
    const accepted = counting(names(GROUP_NAMES_MAX_PER_REQUEST));
    expect(parseGroupNames(accepted.proxy, 'GroupNames', { allowEmpty: false })).toHaveLength(GROUP_NAMES_MAX_PER_REQUEST);
    // a quadratic de-duplication reads about n²/2 = 500 000 times here
    expect(accepted.reads()).toBeLessThanOrEqual(3 * GROUP_NAMES_MAX_PER_REQUEST);
    const refused = counting(names(20_000));
    expect(() => parseGroupNames(refused.proxy, 'GroupNames', { allowEmpty: false })).toThrow(
      `at most ${GROUP_NAMES_MAX_PER_REQUEST} groups`,
    );
    expect(refused.reads()).toBeLessThanOrEqual(20_000);
  });
});
