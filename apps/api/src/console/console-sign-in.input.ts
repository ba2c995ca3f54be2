import { MailLanguage, parseMailLanguage, validateAdminEmail, ValidationFailed } from '@twofold/domain';

function objectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationFailed('The body must be a JSON object.');
  return body as Record<string, unknown>;
}

export function parseSignInStart(raw: unknown): { email: string; language: MailLanguage | null } {
  const body = objectOf(raw);
  const language = body['language'] === undefined || body['language'] === null ? null : parseMailLanguage(body['language'], 'language');
  return { email: validateAdminEmail(body['email']), language };
}

export function parseSignInFinish(raw: unknown): { email: string; emailCode: string; secondFactorCode: string } {
  const body = objectOf(raw);
  const { emailCode, secondFactorCode } = body;
  if (typeof emailCode !== 'string' || emailCode.length > 20) throw new ValidationFailed('emailCode must be the code of the mail.');
  if (typeof secondFactorCode !== 'string' || secondFactorCode.length > 20)
    throw new ValidationFailed('secondFactorCode must be the code of your authenticator app.');
  return { email: validateAdminEmail(body['email']), emailCode: emailCode.trim(), secondFactorCode: secondFactorCode.replace(/\s/g, '') };
}
