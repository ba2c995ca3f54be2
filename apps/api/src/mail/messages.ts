import { PRODUCT_NAME } from '@twofold/domain';

/** Every mail the API sends: subject and plain-text body, in one place. */
export interface MailText {
  subject: string;
  text: string;
}

/**
 * `brand` is the account's display name (issue 14): the recipient must tell which company writes to
 * them; the product is named only in the signature's small print.
 */
function signature(brand: string): string[] {
  return ['', `${brand}`, `(sent by ${PRODUCT_NAME}, the two-factor service of ${brand})`];
}

/** The link to a user's own second-factor setup (POST /users with `EnrollmentLink.To: email`). */
export function userEnrollmentMail(brand: string, greeting: string, url: string, expiresAt: Date): MailText {
  return {
    subject: `${brand}: set up your second factor`,
    text: [
      `Hello ${greeting},`,
      '',
      `${brand} asks you to set up your second factor with an authenticator app here:`,
      url,
      '',
      `The link works once and expires at ${expiresAt.toISOString()}.`,
      'If you did not expect this message, ignore it.',
      ...signature(brand),
    ].join('\n'),
  };
}

/** The invitation of a new administrator to set up their second factor (CONTRACT §5). */
export function administratorInvitationMail(brand: string, name: string, url: string, expiresAt: Date): MailText {
  return {
    subject: `${brand}: you are invited as an administrator, set up your second factor`,
    text: [
      `Hello ${name},`,
      '',
      `You were registered as an administrator of ${brand}. Set up your second factor with an authenticator app here:`,
      url,
      '',
      `The link works once and expires at ${expiresAt.toISOString()}.`,
      'If you did not expect this message, ignore it.',
      ...signature(brand),
    ].join('\n'),
  };
}
