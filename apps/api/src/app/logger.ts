import pino, { Logger } from 'pino';
import { LogLevel } from '../config/app-config';
import { redactedLink } from '../enrollment/enrollment-links.service';

/** Never logged, wherever they appear: credentials, secrets, codes. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.apiSecret',
  '*.secret',
  '*.key',
  '*.password',
  '*.code',
  '*.passCode',
  '*.accessToken',
];

/**
 * The path as a request log line shows it: the enrollment token in `/access/enroll/<token>` is a
 * credential, cut by the journal's own rule (`redactedLink`). So is an access request's id while its
 * user is not enrolled: the page at `/access/<id>` shows anyone the authenticator-app
 * secret that becomes the user's (and the form token), so ids keep their first 8 characters too.
 */
export function loggedUrl(url: string): string {
  return redactedLink(url).replace(
    /(\/access\/(?:requests\/)?)([0-9a-f]{8})[0-9a-f-]{28}(?=[/?#]|$)/i,
    (_all, prefix: string, kept: string) => `${prefix}${kept}…`,
  );
}

export function createLogger(level: LogLevel): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'twofold-api' } });
}
