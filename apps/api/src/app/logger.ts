import pino, { Logger } from 'pino';
import { LogLevel } from '../config/app-config';

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

export function createLogger(level: LogLevel): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'twofold-api' } });
}
