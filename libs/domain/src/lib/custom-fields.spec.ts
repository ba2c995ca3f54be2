import { DomainError } from './domain-error';
import {
  MAX_CUSTOM_FIELDS_PER_USER,
  mergeCustomFields,
  parseCustomFieldNames,
  parseCustomFieldUpdates,
  removeCustomFields,
} from './custom-fields';

const stored = [
  { name: 'Department', value: 'Sales' },
  { name: 'Floor', value: '3' },
];

describe('custom field update', () => {
  it('does work bounded by the field limit, not by the number of updates sent', () => {
    /** updates whose names count how often they are read */
    let reads = 0;
    const updates = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        get name() {
          reads += 1;
          return `field-${i}`;
        },
        value: 'v',
      }));
    const readsFor = (n: number) => {
      reads = 0;
      expect(() => mergeCustomFields([], updates(n))).toThrow(`at most ${MAX_CUSTOM_FIELDS_PER_USER} custom fields`);
      return reads;
    };
    // refused at the 101st new field, whether 101 or 20 000 were sent
    expect(readsFor(20_000)).toBe(readsFor(MAX_CUSTOM_FIELDS_PER_USER + 1));
  });

  it('gives an existing field (name compared case-insensitively) the new value and keeps its stored name', () => {
    expect(mergeCustomFields(stored, [{ name: 'DEPARTMENT', value: 'Support' }])).toEqual([
      { name: 'Department', value: 'Support' },
      { name: 'Floor', value: '3' },
    ]);
  });

  it('creates a missing field and leaves fields not listed unchanged', () => {
    expect(mergeCustomFields(stored, [{ name: 'Badge', value: '77' }])).toEqual([...stored, { name: 'Badge', value: '77' }]);
  });

  it('ignores entries with an empty name', () => {
    expect(
      parseCustomFieldUpdates([{ name: '', value: 'x' }, { name: '  ', value: 'y' }, { value: 'z' }, { name: 'A', value: 'a' }]),
    ).toEqual([{ name: 'A', value: 'a' }]);
  });

  it('lets the later of two updates of one name win', () => {
    expect(
      mergeCustomFields(
        [],
        [
          { name: 'a', value: '1' },
          { name: 'A', value: '2' },
        ],
      ),
    ).toEqual([{ name: 'a', value: '2' }]);
  });

  it('does not change the stored list it is given', () => {
    const copy = stored.map((field) => ({ ...field }));
    mergeCustomFields(copy, [{ name: 'Floor', value: '4' }]);
    expect(copy).toEqual(stored);
  });

  it('writes numbers and booleans as text, null as empty; refuses objects and non-arrays', () => {
    expect(
      parseCustomFieldUpdates([
        { name: 'n', value: 5 },
        { name: 'b', value: true },
        { name: 'z', value: null },
      ]),
    ).toEqual([
      { name: 'n', value: '5' },
      { name: 'b', value: 'true' },
      { name: 'z', value: '' },
    ]);
    expect(() => parseCustomFieldUpdates([{ name: 'o', value: { x: 1 } }])).toThrow(DomainError);
    expect(() => parseCustomFieldUpdates({ name: 'a', value: 'b' })).toThrow(DomainError);
    expect(() => parseCustomFieldUpdates(null)).toThrow(DomainError);
  });

  it('bounds the number of fields a user can have', () => {
    const many = Array.from({ length: MAX_CUSTOM_FIELDS_PER_USER + 1 }, (_, i) => ({ name: `f${i}`, value: '' }));
    expect(() => mergeCustomFields([], many)).toThrow(DomainError);
  });
});

describe('custom field delete', () => {
  it('removes only the listed names, compared case-insensitively', () => {
    expect(removeCustomFields(stored, ['floor'])).toEqual([{ name: 'Department', value: 'Sales' }]);
  });

  it('ignores a name that does not exist', () => {
    expect(removeCustomFields(stored, ['Nope'])).toEqual(stored);
  });

  it('changes nothing for an empty array', () => {
    expect(removeCustomFields(stored, parseCustomFieldNames([]))).toEqual(stored);
  });

  it('ignores empty names', () => {
    expect(parseCustomFieldNames(['', '  ', null, 'Floor'])).toEqual(['Floor']);
    expect(removeCustomFields(stored, parseCustomFieldNames(['']))).toEqual(stored);
  });

  it('refuses a fieldNames that is not an array of strings', () => {
    expect(() => parseCustomFieldNames('Floor')).toThrow(DomainError);
    expect(() => parseCustomFieldNames([1])).toThrow(DomainError);
    expect(() => parseCustomFieldNames(undefined)).toThrow(DomainError);
  });
});
