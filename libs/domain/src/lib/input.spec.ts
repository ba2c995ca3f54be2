import { ValidationFailed } from './domain-error';
import { InputFields } from './input';

describe('InputFields (field names in any case)', () => {
  it('reads a field by its name in any case', () => {
    const fields = InputFields.ofBody({ IDENTITY: 'a', phoneNumber: 'b', Email: null });
    expect(fields.get('identity')).toBe('a');
    expect(fields.get('PhoneNumber')).toBe('b');
    expect(fields.get('email')).toBeNull();
    expect(fields.get('name')).toBeUndefined();
  });

  it('takes the first spelling when one field comes twice in different cases', () => {
    expect(InputFields.ofBody({ Identity: 'first', identity: 'second' }).get('identity')).toBe('first');
    expect(InputFields.ofBody({ identity: 'first', IDENTITY: 'second' }).get('Identity')).toBe('first');
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, undefined, 'text', 42, ['identity']]) {
      expect(() => InputFields.ofBody(body)).toThrow(new ValidationFailed('The request body must be a JSON object.'));
    }
  });

  it('reads an optional nested object as null when absent or null, and refuses anything else', () => {
    expect(InputFields.ofOptional(undefined, 'Groups')).toBeNull();
    expect(InputFields.ofOptional(null, 'Groups')).toBeNull();
    expect(InputFields.ofOptional({ ADD: ['g'] }, 'Groups')?.get('add')).toEqual(['g']);
    expect(() => InputFields.ofOptional(['g'], 'Groups')).toThrow(new ValidationFailed('Groups must be an object.'));
  });

  it('reads anything but an object as having no fields when lenient', () => {
    expect(InputFields.lenient('text').get('identity')).toBeUndefined();
    expect(InputFields.lenient({ Language: 'en' }).get('language')).toBe('en');
  });
});
