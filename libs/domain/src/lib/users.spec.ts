import { DomainError, ErrorMessages } from './domain-error';
import {
  assertCustomFieldsEditable,
  assertWithinLicenses,
  parseV2UserFields,
  validateUserEmail,
  validateUserIdentity,
  validateUserName,
  validateUserSource,
} from './users';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('user fields', () => {
  it('identity must not be empty, is trimmed and keeps its case', () => {
    expect(validateUserIdentity('  Jane.Doe ')).toBe('Jane.Doe');
    expect(messageOf(() => validateUserIdentity(''))).toBe('Identity must not be empty.');
    expect(messageOf(() => validateUserIdentity('   '))).toBe('Identity must not be empty.');
    expect(messageOf(() => validateUserIdentity(undefined))).toBe('Identity must not be empty.');
    expect(messageOf(() => validateUserIdentity(42))).toBe('Identity must not be empty.');
    expect(() => validateUserIdentity('x'.repeat(257))).toThrow(DomainError);
  });

  it('e-mail is optional but must be an e-mail address when set', () => {
    expect(validateUserEmail(undefined)).toBeNull();
    expect(validateUserEmail(null)).toBeNull();
    expect(validateUserEmail(' a@b.example ')).toBe('a@b.example');
    for (const bad of ['', 'plain', 'a@b', 'a b@c.d', 'a@@b.c', 7]) {
      expect(() => validateUserEmail(bad)).toThrow(DomainError);
    }
  });

  it('a blank name means none', () => {
    expect(validateUserName('  ')).toBeNull();
    expect(validateUserName(null)).toBeNull();
    expect(validateUserName(' Jane ')).toBe('Jane');
    expect(() => validateUserName(['Jane'])).toThrow(DomainError);
  });

  it('source is Api by default, Directory when a sync agent says so, nothing else', () => {
    expect(validateUserSource(undefined)).toBe('Api');
    expect(validateUserSource('directory')).toBe('Directory');
    expect(() => validateUserSource('Ldap')).toThrow(DomainError);
  });
});

describe('licenses', () => {
  it('refuses a user beyond the licensed count with the exact message', () => {
    expect(() => assertWithinLicenses(4, 5)).not.toThrow();
    expect(messageOf(() => assertWithinLicenses(5, 5))).toBe('Users quota exceeded');
    expect(() => assertWithinLicenses(0, 0)).toThrow(expect.objectContaining({ code: 'USERS_QUOTA_EXCEEDED' }));
  });
});

describe('V2 user update fields', () => {
  it('takes Identity, Name and Email, names matched case-insensitively', () => {
    expect(
      parseV2UserFields([
        { name: 'identity', value: ' new.login ' },
        { name: 'NAME', value: 'New Name' },
        { name: 'Email', value: 'new@x.example' },
      ]),
    ).toEqual({ identity: 'new.login', name: 'New Name', email: 'new@x.example' });
  });

  it('null clears Name and Email', () => {
    expect(
      parseV2UserFields([
        { name: 'Name', value: null },
        { name: 'Email', value: null },
      ]),
    ).toEqual({ name: null, email: null });
  });

  it('is rejected when Fields is empty or missing', () => {
    expect(messageOf(() => parseV2UserFields([]))).toBe('Fields must not be empty.');
    expect(messageOf(() => parseV2UserFields(undefined))).toBe('Fields must not be empty.');
    expect(messageOf(() => parseV2UserFields(null))).toBe('Fields must not be empty.');
  });

  it('is rejected when a field name is not Identity, Name or Email', () => {
    expect(messageOf(() => parseV2UserFields([{ name: 'Phone', value: '1' }]))).toBe(
      'Field name "Phone" is not one of: Identity, Name, Email.',
    );
    expect(() => parseV2UserFields([{ value: '1' }])).toThrow(DomainError);
    expect(() => parseV2UserFields(['Identity'])).toThrow(DomainError);
  });

  it('is rejected when a field name is repeated, in any case', () => {
    expect(
      messageOf(() =>
        parseV2UserFields([
          { name: 'Name', value: 'a' },
          { name: 'name', value: 'b' },
        ]),
      ),
    ).toBe('Field Name is given more than once.');
  });

  it('is rejected when Email is not in e-mail format', () => {
    expect(messageOf(() => parseV2UserFields([{ name: 'Email', value: 'not-an-email' }]))).toBe('Email must be in e-mail format.');
    expect(() => parseV2UserFields([{ name: 'Email', value: '' }])).toThrow(DomainError);
  });

  it('is rejected when Identity is empty', () => {
    expect(messageOf(() => parseV2UserFields([{ name: 'Identity', value: '' }]))).toBe('Identity must not be empty.');
    expect(() => parseV2UserFields([{ name: 'Identity', value: null }])).toThrow(DomainError);
  });
});

describe('custom fields of a directory user', () => {
  it('are editable unless the user comes from the directory while synchronization is on', () => {
    expect(() => assertCustomFieldsEditable({ source: 'Api' }, true)).not.toThrow();
    expect(() => assertCustomFieldsEditable({ source: 'Directory' }, false)).not.toThrow();
    expect(messageOf(() => assertCustomFieldsEditable({ source: 'Directory' }, true))).toBe(ErrorMessages.directorySyncEnabled);
    expect(ErrorMessages.directorySyncEnabled).toBe('Directory synchronization must be disabled before custom fields are changed.');
  });
});
