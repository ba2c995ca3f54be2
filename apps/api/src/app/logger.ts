import pino, { Logger } from 'pino';
import { LogLevel } from '../config/app-config';
import { redactedLink } from '../enrollment/enrollment-links.service';

/** Never logged, wherever they appear: credentials, secrets, codes. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-telegram-bot-api-secret-token"]',
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
 * time in writing one request line per system call, so lines are batched. Writes stay
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

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };
/** always the same in development, so only noise on a terminal */
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service']);

/**
 * One JSON log line as a developer reads it on a terminal: `22:33:57.123 INFO  Twofold API listening
 * port=3000`. Our own few lines instead of pino-pretty: that package would be a runtime dependency of
 * the production image, which only ever writes JSON. Redaction has happened before this point.
 */
export function prettyLine(json: string, colour = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return `${json}\n`;
  }
  const level = typeof entry['level'] === 'number' ? entry['level'] : 30;
  const time = typeof entry['time'] === 'number' ? new Date(entry['time']).toISOString().slice(11, 23) : '';
  const name = (LEVEL_NAMES[level] ?? String(level)).padEnd(5);
  const shownLevel = colour && LEVEL_COLOURS[level] ? `${LEVEL_COLOURS[level]}${name}\x1b[0m` : name;
  let stack = '';
  const fields = Object.entries(entry)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => {
      const error = value as { message?: unknown; stack?: unknown } | null;
      if (key === 'err' && typeof error?.stack === 'string') {
        stack = `\n    ${error.stack.replace(/\n/g, '\n    ')}`;
        return `${key}=${JSON.stringify(error.message)}`;
      }
      return `${key}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`;
    });
  return `${[time, shownLevel, String(entry['msg'] ?? ''), ...fields].filter((part) => part !== '').join(' ')}${stack}\n`;
}

/** A pino destination writing each line through prettyLine (a terminal's writes are synchronous: no batching). */
export function prettyDestination(write: (text: string) => void, colour = false): pino.DestinationStream {
  return {
    write: (line: string) =>
      write(
        line
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => prettyLine(l, colour))
          .join(''),
      ),
  };
}
