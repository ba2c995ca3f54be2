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

/** Log lines are buffered up to this many bytes, then written in one system call. */
export const LOG_BUFFER_BYTES = 8 * 1024;
/** A buffered line waits at most this long before it is written. */
export const LOG_FLUSH_INTERVAL_MS = 1000;

let stdout: ReturnType<typeof pino.destination> | undefined;

/**
 * The one stdout of every logger of the process. A profile under load showed a fifth of the API's
 * time in writing one request line per system call (issue 11), so lines are batched. Writes stay
 * synchronous: a batch is never in flight when the process exits, and the exit flush writes the rest.
 */
function logDestination(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    const destination = pino.destination({ dest: 1, sync: true, minLength: LOG_BUFFER_BYTES });
    setInterval(() => destination.flush(), LOG_FLUSH_INTERVAL_MS).unref();
    process.on('exit', () => destination.flushSync());
    stdout = destination;
  }
  return stdout;
}

/** Writes the buffered lines now: messages an operator waits for (listening, how to provision). */
export function flushLogs(): void {
  stdout?.flush();
}

/** A logger writing to the process' batched stdout, or to `destination` (tests read the lines). */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = logDestination()): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'twofold-api' } }, destination);
}
