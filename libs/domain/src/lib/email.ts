/**
 * One plain address, `local@domain.tld`, and nothing a mailer could read as more than one recipient or
 * as a display name: the local part is a dot-atom (letters, digits and ``!#$%&'*+/=?^_`{|}~-``, dots only
 * between them), so no `,` `;` `<` `>` `(` `)` `"` `:` `[` `]` `\` or space; the domain is dot-separated
 * labels of letters, digits and inner hyphens, the last one starting with a letter (`example.рф` and
 * `xn--p1ai` alike), no trailing dot. Letters of any script are accepted (internationalized addresses).
 * Quoted local parts and address literals are RFC corner cases not worth accepting: a mailer given
 * `jane,attacker@evil.test` or `jane<attacker@evil.test>` would write to the attacker.
 */
const ATOM = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
const LAST_LABEL = '\\p{L}(?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
export const EMAIL_PATTERN = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${LAST_LABEL}$`, 'u');

/** The parts of an address, each at most as long as the mail standards allow. */
export const EMAIL_LOCAL_PART_MAX_LENGTH = 64;
export const EMAIL_LABEL_MAX_LENGTH = 63;

/** Whether `email` is one plain address this service writes to (see EMAIL_PATTERN). */
export function isPlainEmailAddress(email: string): boolean {
  if (!EMAIL_PATTERN.test(email)) return false;
  const at = email.lastIndexOf('@');
  if (at > EMAIL_LOCAL_PART_MAX_LENGTH) return false;
  return email
    .slice(at + 1)
    .split('.')
    .every((label) => label.length <= EMAIL_LABEL_MAX_LENGTH);
}
