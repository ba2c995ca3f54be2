/** Every mail the API sends: subject and plain-text body, in one place. */
export interface MailText {
  subject: string;
  text: string;
}

/** The link to a user's own second-factor setup (POST /users with `EnrollmentLink.To: email`). */
export function userEnrollmentMail(greeting: string, url: string, expiresAt: Date): MailText {
  return {
    subject: 'Set up your second factor',
    text: [
      `Hello ${greeting},`,
      '',
      'Set up your second factor with an authenticator app here:',
      url,
      '',
      `The link works once and expires at ${expiresAt.toISOString()}.`,
      'If you did not expect this message, ignore it.',
    ].join('\n'),
  };
}

/** The invitation of a new administrator to set up their second factor (CONTRACT §5). */
export function administratorInvitationMail(name: string, url: string, expiresAt: Date): MailText {
  return {
    subject: 'You are invited as an administrator: set up your second factor',
    text: [
      `Hello ${name},`,
      '',
      'You were registered as an administrator. Set up your second factor with an authenticator app here:',
      url,
      '',
      `The link works once and expires at ${expiresAt.toISOString()}.`,
      'If you did not expect this message, ignore it.',
    ].join('\n'),
  };
}
