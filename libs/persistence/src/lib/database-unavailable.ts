/**
 * Whether an error says "the database cannot answer now" (an outage: answered 503 with Retry-After,
 * logged once per outage) rather than "this statement is wrong" (our bug: 500, logged each time).
 * The answer is a short code naming the cause, safe to log: never a message, which may carry a host,
 * a user name or a statement's parameters.
 */

/** SQLSTATEs of a server that is going away, not yet up, full, or refusing this database. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: terminated by an administrator or a fast shutdown
  '57P02', // crash_shutdown: another backend crashed, the server is restarting
  '57P03', // cannot_connect_now: starting up, shutting down, or in recovery
  '57P05', // idle_session_timeout (server setting) ended the connection between statements
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout, the server did not finish within our bound
]);

/** Errors of the socket, before or during a conversation with the server. */
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Errors pg and pg-pool raise without a code, by their fixed English messages. */
const UNAVAILABLE_MESSAGES: readonly [RegExp, string][] = [
  [/^timeout exceeded when trying to connect$/, 'POOL_ACQUIRE_TIMEOUT'],
  [/^Connection terminated due to connection timeout$/, 'CONNECT_TIMEOUT'],
  [/^Connection terminated unexpectedly$/, 'CONNECTION_TERMINATED'],
  [/^Query read timeout$/, 'QUERY_TIMEOUT'],
];

function unavailableCodeOf(error: { code?: unknown; message?: unknown }): string | undefined {
  const code = typeof error.code === 'string' ? error.code : undefined;
  const message = typeof error.message === 'string' ? error.message : '';
  if (code !== undefined && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return code;
  // class 08: connection exception (connection does not exist, failure, rejected)
  if (code !== undefined && /^08[0-9A-Z]{3}$/.test(code)) return code;
  // 55000 is any "object not in prerequisite state"; only this one means the database refuses
  // connections (ALTER DATABASE … ALLOW_CONNECTIONS false, or a database being dropped)
  if (code === '55000' && /not currently accepting connections/.test(message)) return code;
  for (const [pattern, name] of UNAVAILABLE_MESSAGES) if (pattern.test(message)) return name;
  return undefined;
}

/**
 * The outage code of `error`, looking through TypeORM's QueryFailedError (`driverError`) and `cause`,
 * or undefined when it is not an outage.
 */
export function databaseUnavailableCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    // an AggregateError: connecting to every address of a host name failed
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const inner = errors.map(databaseUnavailableCode).find((code) => code !== undefined);
      if (inner) return inner;
    }
    const code = unavailableCodeOf(current as { code?: unknown; message?: unknown });
    if (code) return code;
    const next = current as { driverError?: unknown; cause?: unknown };
    current = next.driverError ?? next.cause;
  }
  return undefined;
}
