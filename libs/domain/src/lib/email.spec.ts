import { isPlainEmailAddress } from './email';

describe('one plain e-mail address', () => {
  it.each([
    'jane@acme.test',
    'jane.doe+vpn@mail.acme.co.uk',
    "o'brien@acme.test",
    'user_1-x@sub-domain.example.org',
    'иван@почта.рф',
    'jane@xn--p1ai.xn--p1ai',
    'a@b.co',
  ])('accepts %p', (email) => {
    expect(isPlainEmailAddress(email)).toBe(true);
  });

  it.each([
    // what mailers read as several recipients or as a display name with another address
    ['a list', 'jane,attacker@evil.test'],
    ['a list with ;', 'jane;attacker@evil.test'],
    ['a display name', 'jane<attacker@evil.test>'],
    ['an angle address', '<attacker@evil.test>'],
    ['a quoted local part', '"jane"@acme.test'],
    ['a comment', 'jane(x)@acme.test'],
    ['a group', 'team:attacker@evil.test;'],
    ['a space', 'jane doe@acme.test'],
    ['a backslash', 'jane\\@acme.test'],
    ['two @', 'jane@acme@evil.test'],
    ['an address literal', 'jane@[127.0.0.1]'],
    // malformed
    ['no domain dot', 'jane@localhost'],
    ['a trailing dot', 'jane@acme.test.'],
    ['a leading dot', '.jane@acme.test'],
    ['two dots', 'jane..doe@acme.test'],
    ['a hyphen at a label edge', 'jane@-acme.test'],
    ['a numeric top-level label', 'jane@10.0.0.1'],
    ['a zero-width space', 'ja\u200bne@acme.test'],
    ['a right-to-left override', 'jane@acme\u202e.test'],
    ['a newline', 'jane@acme.test\nBcc: attacker@evil.test'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@acme.test`],
    ['a label over 63 characters', `jane@${'a'.repeat(64)}.test`],
  ])('refuses %s', (_name, email) => {
    expect(isPlainEmailAddress(email)).toBe(false);
  });
});
