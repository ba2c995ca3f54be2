import { DomainError } from './domain-error';
import { DISPLAY_NAME_MAX_LENGTH, effectiveDisplayName, validateDisplayName } from './display-name';

function refusal(raw: unknown, field?: string): string {
  try {
    validateDisplayName(raw, field);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).message;
  }
  throw new Error('accepted');
}

describe('validateDisplayName', () => {
  it('trims and keeps a name', () => {
    expect(validateDisplayName('  Acme Bank  ')).toBe('Acme Bank');
    expect(validateDisplayName('Ромашка & Co.')).toBe('Ромашка & Co.');
  });

  it('counts characters as people do: 64 emoji are 64 characters', () => {
    expect(validateDisplayName('😀'.repeat(DISPLAY_NAME_MAX_LENGTH))).toHaveLength(128);
    expect(refusal('😀'.repeat(DISPLAY_NAME_MAX_LENGTH + 1))).toBe('displayName must be at most 64 characters.');
    expect(validateDisplayName('a'.repeat(64))).toHaveLength(64);
    expect(refusal('a'.repeat(65))).toBe('displayName must be at most 64 characters.');
  });

  it('refuses a colon, naming the rule', () => {
    expect(refusal('Acme: Bank')).toBe("displayName must not contain ':'.");
  });

  it('refuses empty, blank and non-string values', () => {
    expect(refusal('')).toBe('displayName must not be empty.');
    expect(refusal('   ')).toBe('displayName must not be empty.');
    expect(refusal(42)).toBe('displayName must be a string.');
    expect(refusal(undefined)).toBe('displayName must be a string.');
  });

  it('refuses line breaks and control characters (a mail Subject header)', () => {
    expect(refusal('Acme\r\nBcc: x@evil.test'.replace(':', ''))).toBe('displayName must not contain control characters or line breaks.');
    expect(refusal('Acme\u0000')).toBe('displayName must not contain control characters or line breaks.');
    expect(refusal('Acme\u2028Bank')).toBe('displayName must not contain control characters or line breaks.');
  });

  it('names the field it was given (the CLI flag)', () => {
    expect(refusal('a:b', '--display-name')).toBe("--display-name must not contain ':'.");
  });
});

describe('effectiveDisplayName', () => {
  it("is the display name, else the account's name", () => {
    expect(effectiveDisplayName({ name: 'acme', displayName: 'Acme Bank' })).toBe('Acme Bank');
    expect(effectiveDisplayName({ name: 'acme', displayName: null })).toBe('acme');
  });
});
