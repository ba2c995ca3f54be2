/**
 * The bare baseline of `npm run bench:api`: the scenarios of the API benchmark answered by plain
 * `node:http` + `pg` (one Pool of 10, as the API's), no framework, on the same database, schema and
 * encrypted secrets as the Twofold API, with the same answers (JSON envelopes as Twofold's). It does
 * what an ideal implementation cannot skip, and no more:
 *
 * - every request: Basic auth; a key and secret pair verified before is taken from memory (SHA-256 of the
 *   secret compared in constant time, at most 60 s, wrong pairs never kept), as the API's verified-credential
 *   cache does: that is what a bare server needs, not a round trip and a decryption per call. A pair not
 *   held is looked up by API key (one query), its stored secret decrypted (AES-256-GCM, SecretCipher) and
 *   compared in constant time (secretsEqual). The bench changes no credentials during a run, so this
 *   cache listens to no change (the API's does). An `mf-trace-id` header; one JSON log line per request on stdout, written in batches like the API's pino
 *   destination (8 KB or once a second).
 * - `GET /users[?identity=][&limit&offset]`: one indexed select with the groups, authenticator kinds,
 *   phones, custom fields and code lockouts aggregated per user (no count: the answer has no total),
 *   through the same PL/pgSQL functions as the API (`users_by_identity_with_details`,
 *   `users_page_with_details`: their plans kept per connection), so both do the same database work.
 * - `POST /users`: one transaction: the account row locked, then the licence count and the identity
 *   check in one statement, then the user and its journal event inserted by one statement.
 * - `GET /journal`, `GET /access/requests` (history): one statement for the page and its total, through
 *   the API's PL/pgSQL functions (`journal_day_page_…`, `history_day_page_…`: plans kept per connection);
 *   a settled day's total remembered per filter in settled_day_totals, as Twofold does.
 *   An awaiting request past its 15 minutes is shown Expired (as Twofold's effectiveAccessStatus),
 *   without writing it.
 * - `POST /access/requests`: one INSERT … SELECT that checks "known identity or a free licence".
 * - `POST /access/requests/ra` (with a code): one transaction: the user row locked, read with its first
 *   phone, whether a code lockout of it is in force and its authenticators in the same statement; the
 *   secret decrypted and verified (HOTP look-ahead 10, TOTP window 1); then one statement moving the
 *   counter (conditional UPDATE, the replay guard), stamping lastLogin and inserting the decided request.
 *   Without a code (the two-step flow): the same read without the lock, and one INSERT of the awaiting
 *   request. `/ra/challenge`: one transaction: the request and its user locked and read in one
 *   statement, then one statement for the counter, the request's Granted and lastLogin.
 *
 * Started by tools/bench/api/bench-api.ts as a child process:
 *   PORT=… DATABASE_URL=… SECRET_ENCRYPTION_KEY=… ACCESS_URL=… npx ts-node tools/bench/api/baseline-server.ts
 * It prints `baseline listening on http://127.0.0.1:PORT` when ready.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { Pool, PoolClient } from 'pg';
// Relative on purpose: plain ts-node does not resolve the path aliases, and the persistence index would
// pull TypeORM: only the cipher and the constant-time comparison are imported.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { parseEncryptionKey, SecretCipher } from '../../../libs/persistence/src/lib/secret-cipher';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { secretsEqual } from '../../../libs/persistence/src/lib/credentials';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the same address rule as the API's
import { isPlainEmailAddress } from '../../../libs/domain/src/lib/email';
// eslint-disable-next-line @nx/enforce-module-boundaries -- identities compared by the API's key
import { identityKey } from '../../../libs/domain/src/lib/identity-key';

/** The API's lookup of a user by identity (users.repository.ts identityMatch): by key, exact in a group of look-alikes. */
function identityMatch(alias: string, keyParam: string, exactParam: string): string {
  return `${alias}.identity_key = ${keyParam} AND (${alias}.identity = ${exactParam} OR NOT EXISTS (
            SELECT 1 FROM users c WHERE c.account_id = ${alias}.account_id AND c.identity_key = ${keyParam} AND c.collision_tag <> ''))`;
}
// eslint-disable-next-line @nx/enforce-module-boundaries
import { verifyHotp, verifyTotp, type OtpAlgorithm } from '../../../libs/otp/src';

const PORT = Number(process.env['PORT'] ?? 3100);
const DATABASE_URL = process.env['DATABASE_URL'];
const KEY = process.env['SECRET_ENCRYPTION_KEY'];
const ACCESS_URL = (process.env['ACCESS_URL'] ?? `http://localhost:${PORT}/access`).replace(/\/+$/, '');
if (!DATABASE_URL || !KEY) {
  process.stderr.write('baseline: DATABASE_URL and SECRET_ENCRYPTION_KEY are required\n');
  process.exit(78);
}

// The constants of libs/domain, repeated: libs/domain is imported through an alias.
const ACCESS_REQUEST_TTL_MS = 15 * 60_000;
const ACCESS_REQUEST_MAX_FAILED_CODES = 5;
const HOTP_LOOK_AHEAD = 10;
const TOTP_WINDOW_STEPS = 1;
const OTP_DIGITS = 6;
const DEFAULT_PAGE_LIMIT = 100;
/**
 * "Still awaiting" in a change of one request by id, as Twofold writes it (STILL_AWAITING in
 * access-requests.repository.ts): `status = 'AwaitingAuthentication'` lets the planner pick the partial
 * index of awaiting requests and read all of them instead of one row by primary key.
 */
const STILL_AWAITING = "status NOT IN ('Granted', 'Denied', 'Expired')";
const MAX_PAGE_LIMIT = 1000;
const MAX_BODY_BYTES = 1024 * 1024;
const SYSTEM_GROUP_NAME = 'AllUsers';
const AUTHENTICATOR_KINDS = ['Totp', 'TotpToken', 'HotpToken', 'Telegram', 'Sms'] as const;
const OTP_KINDS = ['Totp', 'TotpToken', 'HotpToken'];
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{1,128}$/;
const UNKNOWN_KEY_SECRET = 'x'.repeat(43);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const cipher = new SecretCipher(parseEncryptionKey(KEY));
const pool = new Pool({ connectionString: DATABASE_URL, max: 10, application_name: 'twofold-bench-baseline' });

// ---------------------------------------------------------------------------------------------------
// Log: one JSON line per request, batched (the API's pino destination writes 8 KB at a time, at least
// once a second).

let logBuffer = '';
function flushLog(): void {
  if (logBuffer === '') return;
  const text = logBuffer;
  logBuffer = '';
  process.stdout.write(text);
}
setInterval(flushLog, 1000).unref();
function logRequest(req: IncomingMessage, traceId: string, status: number, started: number): void {
  logBuffer += `{"level":30,"time":${Date.now()},"service":"twofold-bench-baseline","req":{"traceId":${JSON.stringify(traceId)},"method":${JSON.stringify(req.method)},"url":${JSON.stringify(req.url)}},"res":{"statusCode":${status}},"responseTime":${Math.round(performance.now() - started)},"msg":"request completed"}\n`;
  if (logBuffer.length >= 8192) flushLog();
}

// ---------------------------------------------------------------------------------------------------
// HTTP plumbing

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
const badRequest = (message: string) => new HttpError(400, message);

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  traceId: string;
  started: number;
}

function send(x: Exchange, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  x.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'mf-trace-id': x.traceId,
  });
  x.res.end(text);
  logRequest(x.req, x.traceId, status, x.started);
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'The request body is too large.'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(size === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(badRequest('The request body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Keys matched case-insensitively: the first spelling wins. */
function byLowerKey(value: Record<string, unknown>): Map<string, unknown> {
  const map = new Map<string, unknown>();
  for (const [key, raw] of Object.entries(value)) if (!map.has(key.toLowerCase())) map.set(key.toLowerCase(), raw);
  return map;
}

/** Query parameters by lower-cased name; repeated ones keep every value. */
function queryOf(url: URL): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [key, value] of url.searchParams) {
    const lower = key.toLowerCase();
    const values = map.get(lower);
    if (values) values.push(value);
    else map.set(lower, [value]);
  }
  return map;
}

function single(query: Map<string, string[]>, name: string, label = name): string | undefined {
  const values = query.get(name);
  if (!values) return undefined;
  if (values.length > 1) throw badRequest(`${label} must be given once.`);
  return values[0];
}

function pageOf(query: Map<string, string[]>): { offset: number; limit: number } {
  const read = (name: string): number | undefined => {
    const raw = single(query, name);
    if (raw === undefined || raw === '') return undefined;
    const text = raw.trim();
    if (!/^\d{1,10}$/.test(text)) throw badRequest(`${name} must be a non-negative integer.`);
    return Number(text);
  };
  const offset = read('offset') ?? 0;
  const limit = read('limit') ?? DEFAULT_PAGE_LIMIT;
  if (limit > MAX_PAGE_LIMIT) throw badRequest(`limit must not exceed ${MAX_PAGE_LIMIT}.`);
  return { offset, limit };
}

/** One past UTC day, as libs/domain parsePastDay. */
function pastDay(name: string, raw: string | undefined, now: Date): { day: string; from: Date; to: Date } {
  if (raw === undefined || raw === '') throw badRequest(`${name} is required.`);
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) throw badRequest(`${name} must be a date in the format yyyy-mm-dd.`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const from = new Date(Date.UTC(year, month - 1, day));
  if (from.getUTCFullYear() !== year || from.getUTCMonth() !== month - 1 || from.getUTCDate() !== day)
    throw badRequest(`${name} is not a valid date.`);
  if (from.getTime() >= Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) {
    throw badRequest(`${name} must be a past day, not today or later.`);
  }
  return { day: raw, from, to: new Date(from.getTime() + 86_400_000) };
}

function validateIdentity(raw: unknown, field = 'Identity'): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw badRequest(`${field} must not be empty.`);
  const identity = raw.trim();
  if (identity.length > 256) throw badRequest(`${field} must be at most 256 characters.`);
  return identity;
}

function validateEmail(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw badRequest('Email must be a string.');
  const email = raw.trim();
  if (email.length > 254 || !isPlainEmailAddress(email)) throw badRequest('Email must be in e-mail format.');
  return email;
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

// ---------------------------------------------------------------------------------------------------
// Authentication: a verified pair is kept in memory, as the API's VerifiedCredentialsCache keeps it.

/** As the API's VERIFIED_CREDENTIALS_TTL_MS and VERIFIED_CREDENTIALS_MAX_ENTRIES. */
const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX_ENTRIES = 10_000;
const verified = new Map<string, { principal: AccountPrincipal | ResourcePrincipal; secretDigest: Buffer; expiresAt: number }>();
const digestOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();

function cachedPrincipal<P extends AccountPrincipal>(id: string, secret: string): P | null {
  const presented = digestOf(secret);
  const entry = verified.get(id);
  if (!entry) return null;
  if (entry.expiresAt <= Date.now()) {
    verified.delete(id);
    return null;
  }
  return timingSafeEqual(entry.secretDigest, presented) ? (entry.principal as P) : null;
}

function rememberPrincipal(id: string, secret: string, principal: AccountPrincipal | ResourcePrincipal): void {
  verified.delete(id);
  if (verified.size >= VERIFIED_MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
  verified.set(id, { principal, secretDigest: digestOf(secret), expiresAt: Date.now() + VERIFIED_TTL_MS });
}

interface AccountPrincipal {
  accountId: string;
  login: string;
}
interface ResourcePrincipal extends AccountPrincipal {
  resourceId: string;
}

function basicCredentials(req: IncomingMessage): { key: string; secret: string } | null {
  const header = req.headers.authorization;
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

async function authenticateAccount(req: IncomingMessage): Promise<AccountPrincipal> {
  const credentials = basicCredentials(req);
  if (!credentials) throw new HttpError(401, 'Authentication required.');
  const cached = cachedPrincipal<AccountPrincipal>(`account:${credentials.key}`, credentials.secret);
  if (cached) return cached;
  const { rows } = PLAUSIBLE_KEY.test(credentials.key)
    ? await pool.query<{ id: string; api_enabled: boolean; api_secret_enc: Buffer | null }>(
        'SELECT id, api_enabled, api_secret_enc FROM accounts WHERE api_key = $1',
        [credentials.key],
      )
    : { rows: [] };
  const account = rows[0];
  const stored = account?.api_secret_enc ? cipher.decryptText('account.api-secret', account.api_secret_enc) : UNKNOWN_KEY_SECRET;
  const matches = secretsEqual(credentials.secret, stored);
  if (!account || !account.api_secret_enc || !matches) throw new HttpError(401, 'Authentication required.');
  if (!account.api_enabled) throw new HttpError(403, 'The API is disabled for this account.');
  const principal = { accountId: account.id, login: credentials.key };
  rememberPrincipal(`account:${credentials.key}`, credentials.secret, principal);
  return principal;
}

async function authenticateResource(req: IncomingMessage): Promise<ResourcePrincipal> {
  const credentials = basicCredentials(req);
  if (!credentials) throw new HttpError(401, 'Authentication required.');
  const cached = cachedPrincipal<ResourcePrincipal>(`resource:${credentials.key}`, credentials.secret);
  if (cached) return cached;
  const { rows } = PLAUSIBLE_KEY.test(credentials.key)
    ? await pool.query<{ id: string; account_id: string; api_secret_enc: Buffer }>(
        'SELECT id, account_id, api_secret_enc FROM resources WHERE api_key = $1',
        [credentials.key],
      )
    : { rows: [] };
  const resource = rows[0];
  const stored = resource ? cipher.decryptText('resource.api-secret', resource.api_secret_enc) : UNKNOWN_KEY_SECRET;
  const matches = secretsEqual(credentials.secret, stored);
  if (!resource || !matches) throw new HttpError(401, 'Authentication required.');
  const principal = { accountId: resource.account_id, resourceId: resource.id, login: credentials.key };
  rememberPrincipal(`resource:${credentials.key}`, credentials.secret, principal);
  return principal;
}

async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

// ---------------------------------------------------------------------------------------------------
// Users

interface UserRow {
  id: string;
  identity: string;
  name: string | null;
  email: string | null;
  is_locked: boolean;
  created_at: Date;
  last_login: Date | null;
  groups: string[];
  kinds: string[];
  phones: string[];
  custom_fields: { name: string; value: string }[];
  code_lockouts: { scope: string; scopeKey: string; failures: number; lockedUntil: string; resourceName: string | null }[];
}

function userDto(row: UserRow, withPhones: boolean) {
  const now = Date.now();
  const authenticators = AUTHENTICATOR_KINDS.filter((kind) => row.kinds.includes(kind) || (kind === 'Sms' && row.phones.length > 0));
  const dto: Record<string, unknown> = {
    id: row.id,
    identity: row.identity,
    name: row.name,
    email: row.email,
    isEnrolled: authenticators.length > 0,
    createdAt: row.created_at.toISOString(),
    lastLogin: iso(row.last_login),
    isLocked: row.is_locked,
    groups: [SYSTEM_GROUP_NAME, ...row.groups],
    authenticators,
    customFields: row.custom_fields,
    codeLockouts: row.code_lockouts
      .filter((lockout) => new Date(lockout.lockedUntil).getTime() > now)
      .map((lockout) => ({
        scope: lockout.scope,
        // an address scope's key is the network, then `@` and the resource that named it (when one did)
        address: lockout.scope === 'address' ? lockout.scopeKey.split('@')[0] : null,
        resource:
          lockout.scope === 'resource'
            ? { id: lockout.scopeKey, name: lockout.resourceName }
            : lockout.scopeKey.includes('@')
              ? { id: lockout.scopeKey.split('@')[1], name: lockout.resourceName }
              : null,
        wrongCodes: lockout.failures,
        lockedUntil: new Date(lockout.lockedUntil).toISOString(),
      })),
  };
  if (withPhones) dto['phones'] = row.phones;
  return dto;
}

async function listUsers(x: Exchange, url: URL): Promise<void> {
  const principal = await authenticateAccount(x.req);
  const query = queryOf(url);
  const page = pageOf(query);
  const identity = single(query, 'identity')?.trim();
  const rawPhones = single(query, 'withphones', 'withPhones');
  let withPhones = false;
  if (rawPhones === 'true' || rawPhones === 'True' || rawPhones === '1') withPhones = true;
  else if (rawPhones !== undefined && rawPhones !== '' && rawPhones !== 'false' && rawPhones !== 'False' && rawPhones !== '0') {
    throw badRequest('withPhones must be true or false.');
  }
  // the same statements in the API's PL/pgSQL functions, whose plans PostgreSQL keeps per connection
  // (the same database work as the API's; sent as statements, they are planned on every call)
  const { rows } = identity
    ? await pool.query<UserRow>('SELECT * FROM users_by_identity_with_details($1, $2, $3, $4, $5)', [
        principal.accountId,
        identityKey(identity),
        identity,
        page.limit,
        page.offset,
      ])
    : await pool.query<UserRow>('SELECT * FROM users_page_with_details($1, $2, $3)', [principal.accountId, page.limit, page.offset]);
  send(x, 200, { model: rows.map((row) => userDto(row, withPhones)), success: true, message: null });
}

async function createUser(x: Exchange): Promise<void> {
  const principal = await authenticateAccount(x.req);
  const body = await readBody(x.req);
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
  const fields = byLowerKey(body);
  for (const unsupported of ['phone', 'groups', 'enrollmentlink']) {
    if (fields.get(unsupported) !== undefined && fields.get(unsupported) !== null)
      throw badRequest(`the baseline does not implement ${unsupported}`);
  }
  const identity = validateIdentity(fields.get('identity'));
  const email = validateEmail(fields.get('email'));
  const rawName = fields.get('name');
  if (rawName !== undefined && rawName !== null && typeof rawName !== 'string') throw badRequest('Name must be a string.');
  const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName.trim() : null;
  const rawSource = fields.get('source');
  const source =
    rawSource === undefined || rawSource === null
      ? 'Api'
      : ['Api', 'Directory'].find((s) => typeof rawSource === 'string' && s.toLowerCase() === rawSource.trim().toLowerCase());
  if (!source) throw badRequest('Source must be one of: Api, Directory.');
  const now = new Date();
  const row = await inTransaction(async (client) => {
    // the account row lock orders parallel creations, so the licence count cannot be outrun; the count
    // is a statement of its own: in READ COMMITTED only a statement started after the lock was granted
    // sees the users the previous holder inserted
    const { rows: accounts } = await client.query<{ licenses: number; users: number }>(
      'SELECT licenses, user_count AS users FROM accounts WHERE id = $1 FOR UPDATE',
      [principal.accountId],
    );
    if (!accounts[0]) throw new HttpError(500, 'account not found');
    const { rows: checks } = await client.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$3', '$2')}) AS taken`,
      [principal.accountId, identity, identityKey(identity)],
    );
    if (checks[0].taken) throw new HttpError(409, `A user with the identity ${identity} already exists.`);
    if (accounts[0].users >= accounts[0].licenses) throw badRequest('Users quota exceeded');
    const { rows } = await client.query<UserRow>(
      `WITH u AS (
         INSERT INTO users (account_id, identity, identity_key, name, email, is_locked, source, created_at, last_login)
         VALUES ($1, $2, $8, $3, $4, false, $5, $6, NULL)
         RETURNING id, identity, name, email, is_locked, created_at, last_login),
       j AS (
         INSERT INTO journal_events (account_id, event_date, object, action, subject, success, additional_fields)
         SELECT $1, $6, 'User', 'Create', $7, true, jsonb_build_object('UserIdentity', $2::text, 'UserId', u.id::text) FROM u)
       SELECT u.*, '{}'::text[] AS groups, '{}'::text[] AS kinds, '{}'::text[] AS phones, '[]'::json AS custom_fields, '[]'::json AS code_lockouts FROM u`,
      [principal.accountId, identity, name, email, source, now, principal.login, identityKey(identity)],
    );
    return rows[0];
  });
  send(x, 200, { model: userDto(row, false), success: true, message: null });
}

// ---------------------------------------------------------------------------------------------------
// Journal and history: one statement for the page and the total, a call of the API's PL/pgSQL
// functions (the same database work as the API's; sent as statements, they were planned on every
// call). A settled day's total (15 minutes after its end, as Twofold's isSettledDay) is read from
// settled_day_totals, checked against the account's past_rows_version, in that call; counted (with the
// version, one statement) and stored only when it is not there. Same table and key spelling as Twofold's.

const DAY_SETTLES_AFTER_MS = 15 * 60_000;
/** as Twofold's REMEMBERED_TOTAL_MIN_ROWS: smaller totals are counted every time */
const REMEMBERED_TOTAL_MIN_ROWS = 10_000;

interface DayPageKey {
  accountId: string;
  list: 'journal' | 'history';
  day: { day: string; to: Date };
  filter: string;
}

const argsList = (count: number) => Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ');

/** `filterArgs`: the function's filter arguments (account, from, to, then the list's own). */
async function dayPage<Row extends { total: string | number | null }>(
  key: DayPageKey,
  filterArgs: unknown[],
  page: { limit: number; offset: number },
): Promise<Row[]> {
  const args = [...filterArgs, page.limit, page.offset];
  if (Date.now() < key.day.to.getTime() + DAY_SETTLES_AFTER_MS) {
    return (await pool.query<Row>(`SELECT * FROM ${key.list}_day_page_counting_total(${argsList(args.length)})`, args)).rows;
  }
  args.push(key.day.day, key.filter);
  const { rows } = await pool.query<Row>(`SELECT * FROM ${key.list}_day_page_remembered_total(${argsList(args.length)})`, args);
  if (rows[0] && rows[0].total !== null) return rows;
  const countArgs = [...filterArgs, 0, 0];
  const counted = (
    await pool.query<{ total: number; version: string }>(
      `SELECT c.total, (SELECT v.past_rows_version FROM accounts v WHERE v.id = $1) AS version
         FROM ${key.list}_day_page_counting_total(${argsList(countArgs.length)}) c`,
      countArgs,
    )
  ).rows[0];
  for (const row of rows) row.total = counted.total;
  if (counted.total < REMEMBERED_TOTAL_MIN_ROWS) return rows;
  await pool.query(
    `INSERT INTO settled_day_totals (account_id, list, day, filter, version, total) VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (account_id, list, day, filter) DO UPDATE SET version = EXCLUDED.version, total = EXCLUDED.total
      WHERE settled_day_totals.version < EXCLUDED.version`,
    [key.accountId, key.list, key.day.day, key.filter, counted.version, counted.total],
  );
  return rows;
}

interface JournalRow {
  total: string;
  id: string | null;
  eventDate: Date;
  object: string;
  action: string;
  subject: string;
  success: boolean;
  additionalFields: Record<string, string>;
}

async function journal(x: Exchange, url: URL): Promise<void> {
  const principal = await authenticateAccount(x.req);
  const query = queryOf(url);
  const day = pastDay('eventDate', single(query, 'eventdate', 'eventDate'), new Date());
  const page = pageOf(query);
  const anyOf = <T>(values: T[]) => (values.length ? values : null);
  const successes = (query.get('success') ?? []).map((value) => {
    if (value !== 'true' && value !== 'false') throw badRequest('success must be true or false.');
    return value === 'true';
  });
  const subject = single(query, 'subject');
  const sorted = (values: string[] | undefined) => [...new Set(values ?? [])].sort();
  const filter = JSON.stringify({
    actions: sorted(query.get('action')),
    objects: sorted(query.get('object')),
    successes: sorted(query.get('success')),
    subject: subject ?? null,
  });
  const rows = await dayPage<JournalRow>(
    { accountId: principal.accountId, list: 'journal', day, filter },
    [
      principal.accountId,
      day.from,
      day.to,
      anyOf(query.get('action') ?? []),
      anyOf(query.get('object') ?? []),
      anyOf(successes),
      subject ?? null,
    ],
    page,
  );
  const data = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      eventId: row.id,
      eventDate: row.eventDate.toISOString(),
      object: row.object,
      subject: row.subject,
      action: row.action,
      success: row.success,
      additionalFields: row.additionalFields,
    }));
  send(x, 200, {
    model: { success: true, message: null, data, offset: page.offset, limit: page.limit, totalElements: Number(rows[0]?.total ?? 0) },
  });
}

interface HistoryRow {
  total: string;
  id: string | null;
  identity: string;
  status: string;
  resourceName: string | null;
  createdAt: Date;
  grantedAt: Date | null;
  authenticator: string | null;
  countryCode: string | null;
  region: string | null;
  city: string | null;
  remoteHost: string | null;
  ip: string | null;
  twoFADeviceIp: string | null;
  bypassed: boolean;
  channel: string;
}

function effectiveStatus(status: string, createdAt: Date, now: number): string {
  return status === 'AwaitingAuthentication' && now >= createdAt.getTime() + ACCESS_REQUEST_TTL_MS ? 'Expired' : status;
}

async function history(x: Exchange, url: URL): Promise<void> {
  const principal = await authenticateAccount(x.req);
  const query = queryOf(url);
  const now = new Date();
  const day = pastDay('createdAt', single(query, 'createdat', 'createdAt'), now);
  const page = pageOf(query);
  const identity = single(query, 'identity');
  const rows = await dayPage<HistoryRow>(
    { accountId: principal.accountId, list: 'history', day, filter: JSON.stringify({ identity: identity || null }) },
    [principal.accountId, day.from, day.to, identity || null],
    page,
  );
  const at = now.getTime();
  const data = rows
    .filter((row) => row.id !== null)
    .map((row) => ({
      id: row.id,
      identity: row.identity,
      status: effectiveStatus(row.status, row.createdAt, at),
      resourceName: row.resourceName,
      createdAt: row.createdAt.toISOString(),
      grantedAt: iso(row.grantedAt),
      authenticator: row.authenticator,
      countryCode: row.countryCode,
      region: row.region,
      city: row.city,
      remoteHost: row.remoteHost,
      ip: row.ip,
      twoFADeviceIp: row.twoFADeviceIp,
      bypassed: row.bypassed,
      channel: row.channel,
    }));
  send(x, 200, {
    model: { data, offset: page.offset, limit: page.limit, totalElements: Number(rows[0]?.total ?? 0) },
    success: true,
    message: null,
  });
}

// ---------------------------------------------------------------------------------------------------
// Access requests

function validateCallback(raw: unknown): { action: string; target: string } | null {
  if (raw === undefined || raw === null) return null;
  if (!isPlainObject(raw)) throw badRequest('Callback must be an object {action, target}.');
  const fields = byLowerKey(raw);
  const action = fields.get('action');
  if (typeof action !== 'string' || action.trim() === '' || action.trim().length > 2048)
    throw badRequest('Callback.Action must be an absolute http or https URL.');
  let href: string;
  if (/^javascript:\s*window\.parent\.postMessage\(\s*\$`AccessToken`\s*,\s*(['"])\*\1\s*\)\s*;?$/i.test(action.trim()))
    href = action.trim();
  else {
    let parsed: URL;
    try {
      parsed = new URL(action.trim());
    } catch {
      throw badRequest('Callback.Action must be an absolute http or https URL.');
    }
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password) {
      throw badRequest('Callback.Action must be an absolute http or https URL.');
    }
    if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$/i.test(parsed.hostname) && !/^\[[0-9a-f:.]+\]$/i.test(parsed.hostname)) {
      throw badRequest('Callback.Action must have a plain host name.');
    }
    href = parsed.href;
  }
  const rawTarget = fields.get('target');
  if (rawTarget === undefined || rawTarget === null) return { action: href, target: '_self' };
  const target = ['_self', '_parent', '_top'].find((known) => typeof rawTarget === 'string' && known === rawTarget.trim().toLowerCase());
  if (!target) throw badRequest('Callback.Target must be one of: _self, _parent, _top.');
  return { action: href, target };
}

function languageOf(raw: unknown): 'en' | 'ru' {
  return typeof raw === 'string' && /^\s*en(?![a-z])/i.test(raw) ? 'en' : 'ru';
}

async function createAccessRequest(x: Exchange): Promise<void> {
  const principal = await authenticateResource(x.req);
  const body = await readBody(x.req);
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
  const fields = byLowerKey(body);
  const identity = validateIdentity(fields.get('identity'));
  let email: string | null = null;
  try {
    email = validateEmail(fields.get('email'));
  } catch {
    email = null;
  }
  const rawPhone = fields.get('phone');
  const phone = typeof rawPhone === 'string' && rawPhone.trim() !== '' && rawPhone.trim().length <= 32 ? rawPhone.trim() : null;
  const claims = fields.get('claims');
  if (claims !== undefined && claims !== null && (!isPlainObject(claims) || JSON.stringify(claims).length > 8192))
    throw badRequest('Claims must be a JSON object.');
  const callback = validateCallback(fields.get('callback'));
  const preset = fields.get('grouppolicypreset');
  const rawGroups = isPlainObject(preset) ? byLowerKey(preset).get('signupgroups') : undefined;
  const signUpGroups =
    typeof rawGroups === 'string'
      ? [
          ...new Set(
            rawGroups
              .split(';')
              .map((name) => name.trim())
              .filter((name) => name !== ''),
          ),
        ]
      : [];
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO access_requests (account_id, resource_id, identity, email, phone, language, claims, callback_action, callback_target,
                                  channel, sign_up_groups, status, failed_attempts, created_at)
     SELECT $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, 'page', $10, 'AwaitingAuthentication', 0, $11
      WHERE EXISTS (SELECT 1 FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$12', '$3')})
         OR (SELECT user_count < licenses FROM accounts WHERE id = $1)
     RETURNING id`,
    [
      principal.accountId,
      principal.resourceId,
      identity,
      email,
      phone,
      languageOf(fields.get('language')),
      JSON.stringify(isPlainObject(claims) ? claims : {}),
      callback?.action ?? null,
      callback?.target ?? null,
      signUpGroups.length > 0 ? signUpGroups : null,
      new Date(),
      identityKey(identity),
    ],
  );
  const id = rows[0]?.id;
  if (!id) return send(x, 200, { model: null, success: false, message: 'Users quota exceeded' });
  send(x, 200, { model: { id, url: `${ACCESS_URL}/${id}`, status: 'AwaitingAuthentication' }, success: true, message: null });
}

// ---------------------------------------------------------------------------------------------------
// The ra family

type RaStatus = 'AwaitingAuthentication' | 'Granted' | 'Denied';
type Reply =
  | 'granted'
  | 'enterCode'
  | 'wrongCode'
  | 'tooManyCodes'
  | 'unknownUser'
  | 'locked'
  | 'noSecondFactor'
  | 'unusableSecondFactor'
  | 'requestNotValid'
  | 'expired'
  | 'badRequest'
  | { attemptsLeft: number };

const REPLIES: Record<'en' | 'ru', Record<Exclude<Reply, { attemptsLeft: number }>, string>> = {
  en: {
    granted: 'Access granted.',
    enterCode: 'Enter the code from your authenticator app or token.',
    wrongCode: 'Access denied: wrong or already used code.',
    tooManyCodes: 'Access denied: too many wrong codes. Try again later.',
    unknownUser: 'Access denied: the user is not registered.',
    locked: 'Access denied: the user is locked.',
    noSecondFactor: 'Access denied: set up a second factor first.',
    unusableSecondFactor: 'Access denied: your second factor cannot be used here. Set up an authenticator app or token.',
    requestNotValid: 'Access denied: this sign-in request is no longer valid. Sign in again.',
    expired: 'Access denied: the sign-in request has expired. Sign in again.',
    badRequest: 'Access denied: the request could not be read.',
  },
  ru: {
    granted: 'Доступ разрешён.',
    enterCode: 'Введите код из приложения-аутентификатора или токена.',
    wrongCode: 'Доступ запрещён: неверный или уже использованный код.',
    tooManyCodes: 'Доступ запрещён: слишком много неверных кодов. Попробуйте позже.',
    unknownUser: 'Доступ запрещён: пользователь не зарегистрирован.',
    locked: 'Доступ запрещён: пользователь заблокирован.',
    noSecondFactor: 'Доступ запрещён: сначала настройте второй фактор.',
    unusableSecondFactor: 'Доступ запрещён: ваш второй фактор здесь недоступен. Настройте приложение-аутентификатор или токен.',
    requestNotValid: 'Доступ запрещён: запрос на вход больше не действует. Войдите заново.',
    expired: 'Доступ запрещён: срок действия запроса истёк. Войдите заново.',
    badRequest: 'Доступ запрещён: запрос не удалось прочитать.',
  },
};

function replyText(reply: Reply, language: 'en' | 'ru'): string {
  if (typeof reply === 'object') {
    return language === 'en'
      ? `Wrong code. Enter the code again (${reply.attemptsLeft} of ${ACCESS_REQUEST_MAX_FAILED_CODES} attempts left).`
      : `Неверный код. Введите код ещё раз (осталось попыток: ${reply.attemptsLeft} из ${ACCESS_REQUEST_MAX_FAILED_CODES}).`;
  }
  return REPLIES[language][reply];
}

interface RaFacts {
  id?: string | null;
  identity?: string | null;
  authenticator?: string | null;
  authenticatorId?: string | null;
  account?: string | null;
  phone?: string | null;
}

function raAnswer(status: RaStatus, reply: Reply, language: 'en' | 'ru', facts: RaFacts) {
  const success = status !== 'Denied';
  return {
    model: {
      id: facts.id ?? null,
      identity: facts.identity ?? null,
      status,
      replyMessage: replyText(reply, language),
      authenticator: facts.authenticator ?? null,
      authenticatorId: facts.authenticatorId ?? null,
      account: facts.account ?? null,
      phone: facts.phone ?? null,
      bypassed: false,
      countryCode: null,
      region: null,
      city: null,
    },
    success,
    message: success ? null : reply === 'unknownUser' ? 'UserNotRegistered' : replyText(reply, 'en'),
  };
}

type PassCode = { kind: 'none' } | { kind: 'delivery' } | { kind: 'code'; code: string };

function parsePassCode(raw: unknown, field: string): PassCode {
  if (raw === undefined || raw === null) return { kind: 'none' };
  if (typeof raw !== 'string') throw badRequest(`${field} must be a string.`);
  if (raw.length > 64) throw badRequest(`${field} must be at most 64 characters.`);
  const text = raw.replace(/\s+/g, '');
  if (text === '') return { kind: 'none' };
  if (['t', 'm', 's', 'c'].includes(text.toLowerCase())) return { kind: 'delivery' };
  return { kind: 'code', code: text };
}

function ipOrNull(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  return isIP(text) === 0 ? null : text;
}

interface StoredAuthenticator {
  id: string;
  kind: string;
  name: string;
  secret: string | null;
  algorithm: string | null;
  hotp_counter: string | null;
  last_time_step: string | null;
}

/** The user's facts a code check needs, read with the user row (in one statement). */
const USER_CHECK_COLUMNS = `u.id AS user_id, u.identity AS user_identity, u.is_locked,
  (SELECT ac.ip_lists_revision::text FROM accounts ac WHERE ac.id = u.account_id) AS ip_lists_revision,
  (SELECT p.number FROM phones p WHERE p.user_id = u.id AND p.account_id = u.account_id ORDER BY p.number, p.id LIMIT 1) AS phone,
  (SELECT count(*)::int FROM wrong_code_streaks s
    WHERE s.account_id = u.account_id AND s.user_id = u.id AND s.locked_until > $3) AS locked_scopes,
  COALESCE((SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'name', a.name, 'secret', encode(a.secret_enc, 'base64'),
                                              'algorithm', a.algorithm, 'hotp_counter', a.hotp_counter::text,
                                              'last_time_step', a.last_time_step::text) ORDER BY a.created_at, a.id)
              FROM authenticators a WHERE a.account_id = u.account_id AND a.user_id = u.id), '[]'::json) AS authenticators`;

interface UserCheckRow {
  user_id: string;
  user_identity: string;
  is_locked: boolean;
  /** read as the API reads it; the bench's accounts have no IP lists, which the baseline does not implement */
  ip_lists_revision: string | null;
  phone: string | null;
  locked_scopes: number;
  authenticators: StoredAuthenticator[];
}

interface Match {
  authenticator: StoredAuthenticator;
  /** HOTP: the counter the code matched; TOTP: the time step */
  value: number;
}

/** Decrypts each OTP secret and verifies the code (HOTP look-ahead 10, TOTP window 1 with the replay guard). */
function verifyCode(authenticators: StoredAuthenticator[], code: string, now: Date): Match | null {
  if (!/^\d{6}$/.test(code)) return null;
  for (const authenticator of authenticators) {
    if (!OTP_KINDS.includes(authenticator.kind) || authenticator.secret === null) continue;
    const secret = cipher.decrypt('authenticator.secret', Buffer.from(authenticator.secret, 'base64'));
    if (authenticator.kind === 'HotpToken') {
      const upper = authenticator.algorithm?.toUpperCase();
      const algorithm: OtpAlgorithm = upper === 'SHA256' || upper === 'SHA512' ? upper : 'SHA1';
      const result = verifyHotp({
        secret,
        code,
        counter: Number(authenticator.hotp_counter ?? 0),
        lookAhead: HOTP_LOOK_AHEAD,
        algorithm,
        digits: OTP_DIGITS,
      });
      if (result.valid) return { authenticator, value: result.counter };
    } else {
      const result = verifyTotp({
        secret,
        code,
        time: now.getTime(),
        window: TOTP_WINDOW_STEPS,
        digits: OTP_DIGITS,
        afterTimeStep: authenticator.last_time_step === null ? undefined : Number(authenticator.last_time_step),
      });
      if (result.valid) return { authenticator, value: result.timeStep };
    }
  }
  return null;
}

/** The conditional UPDATE that spends a code (the replay guard), as one CTE of a bigger statement: `acc`. */
function spendCode(match: Match, firstParam: number): { cte: string; params: unknown[] } {
  const column = match.authenticator.kind === 'HotpToken' ? 'hotp_counter' : 'last_time_step';
  const guard =
    match.authenticator.kind === 'HotpToken'
      ? `hotp_counter <= $${firstParam + 1}`
      : `(last_time_step IS NULL OR last_time_step < $${firstParam + 1})`;
  const next = match.authenticator.kind === 'HotpToken' ? match.value + 1 : match.value;
  return {
    cte: `acc AS (UPDATE authenticators SET ${column} = $${firstParam + 2} WHERE account_id = $1 AND id = $${firstParam} AND ${guard} RETURNING id)`,
    params: [match.authenticator.id, match.value, next],
  };
}

async function ra(x: Exchange): Promise<void> {
  const principal = await authenticateResource(x.req);
  const body = await readBody(x.req);
  const language = languageOf(isPlainObject(body) ? byLowerKey(body).get('language') : undefined);
  let identity: string;
  let passCode: PassCode;
  let userIp: string | null;
  try {
    if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
    const fields = byLowerKey(body);
    identity = validateIdentity(fields.get('identity'));
    passCode = parsePassCode(fields.get('passcode'), 'PassCode');
    userIp = ipOrNull(fields.get('ip')) ?? ipOrNull(fields.get('callingstationid'));
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const answer = raAnswer('Denied', 'badRequest', language, {});
    return send(x, 200, { ...answer, message: error.message });
  }
  const now = new Date();
  const insertRequest = (
    client: Pool | PoolClient,
    values: { userId: string | null; identity: string; status: string; failed: number; authenticator?: string },
  ) =>
    client.query<{ id: string }>(
      `INSERT INTO access_requests (account_id, resource_id, user_id, identity, language, channel, status, failed_attempts, created_at, granted_at,
                                    authenticator, ip, remote_host)
       VALUES ($1, $2, $3, $4, $5, 'ra', $6, $7, $8, $9, $10, $11, $11) RETURNING id`,
      [
        principal.accountId,
        principal.resourceId,
        values.userId,
        values.identity,
        language,
        values.status,
        values.failed,
        now,
        values.status === 'Granted' ? now : null,
        values.authenticator ?? null,
        userIp,
      ],
    );
  /** a refusal decided before any code was checked: the request is recorded Denied in one INSERT */
  const refuse = async (client: Pool | PoolClient, user: UserCheckRow | undefined, reply: Reply) => {
    const { rows } = await insertRequest(client, {
      userId: user?.user_id ?? null,
      identity: user?.user_identity ?? identity,
      status: 'Denied',
      failed: 0,
    });
    return raAnswer('Denied', reply, language, { id: rows[0].id, identity: user?.user_identity ?? identity, phone: user?.phone ?? null });
  };
  const precheck = (user: UserCheckRow | undefined): Reply | null => {
    if (!user) return 'unknownUser';
    if (user.is_locked) return 'locked';
    if (user.ip_lists_revision !== null) throw badRequest('the baseline does not implement IP lists');
    const otp = user.authenticators.filter((a) => OTP_KINDS.includes(a.kind) && a.secret !== null);
    if (otp.length === 0) return user.authenticators.length > 0 || user.phone ? 'unusableSecondFactor' : 'noSecondFactor';
    if (passCode.kind === 'delivery') throw badRequest('the baseline does not implement delivery methods (t, m, s, c)');
    if (user.locked_scopes > 0) return 'tooManyCodes';
    return null;
  };

  if (passCode.kind !== 'code') {
    // the first step of the two-step flow: nothing is checked, so nothing needs the user row lock
    const { rows } = await pool.query<UserCheckRow>(
      `SELECT ${USER_CHECK_COLUMNS} FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$4', '$2')}`,
      [principal.accountId, identity, now, identityKey(identity)],
    );
    const user = rows[0];
    const refusal = precheck(user);
    if (refusal) return send(x, 200, await refuse(pool, user, refusal));
    const inserted = await insertRequest(pool, {
      userId: user.user_id,
      identity: user.user_identity,
      status: 'AwaitingAuthentication',
      failed: 0,
    });
    return send(
      x,
      200,
      raAnswer('AwaitingAuthentication', 'enterCode', language, {
        id: inserted.rows[0].id,
        identity: user.user_identity,
        phone: user.phone,
      }),
    );
  }

  const code = passCode.code;
  const answer = await inTransaction(async (client) => {
    // the user row lock queues one user's checks: the wrong-code count cannot be outrun
    const { rows } = await client.query<UserCheckRow>(
      `SELECT ${USER_CHECK_COLUMNS} FROM users u WHERE u.account_id = $1 AND ${identityMatch('u', '$4', '$2')} FOR UPDATE OF u`,
      [principal.accountId, identity, now, identityKey(identity)],
    );
    const user = rows[0];
    const refusal = precheck(user);
    if (refusal) return refuse(client, user, refusal);
    const match = verifyCode(user.authenticators, code, now);
    if (!match) {
      const { rows: denied } = await insertRequest(client, {
        userId: user.user_id,
        identity: user.user_identity,
        status: 'Denied',
        failed: 1,
      });
      return raAnswer('Denied', 'wrongCode', language, { id: denied[0].id, identity: user.user_identity, phone: user.phone });
    }
    // one call of the API's own function (PL/pgSQL, its plans kept per connection): the code spent
    // (conditional), the request recorded Granted and lastLogin set; null when the code was spent first
    const hotp = match.authenticator.kind === 'HotpToken';
    const { rows: granted } = await client.query<{ id: string | null }>(
      `SELECT access_request_granted_spending($1, $2, $3, $4, NULL, NULL, $5, NULL, NULL, NULL, 'ra', $6, $6, 'Granted', 0, $7, $8, $7,
                                              false, ARRAY[$9]::uuid[], $10::bigint, $11::bigint) AS id`,
      [
        principal.accountId,
        principal.resourceId,
        user.user_id,
        user.user_identity,
        language,
        userIp,
        now,
        match.authenticator.kind,
        match.authenticator.id,
        hotp ? null : match.value,
        hotp ? match.value : null,
      ],
    );
    const decided = granted[0].id
      ? [{ id: granted[0].id, status: 'Granted' }]
      : (await insertRequest(client, { userId: user.user_id, identity: user.user_identity, status: 'Denied', failed: 1 })).rows.map(
          (row) => ({ id: row.id, status: 'Denied' }),
        );
    const facts: RaFacts = { id: decided[0].id, identity: user.user_identity, phone: user.phone };
    if (decided[0].status !== 'Granted') return raAnswer('Denied', 'wrongCode', language, facts);
    return raAnswer('Granted', 'granted', language, {
      ...facts,
      authenticator: match.authenticator.kind,
      authenticatorId: match.authenticator.id,
      account: match.authenticator.name,
    });
  });
  send(x, 200, answer);
}

interface ChallengeRow extends UserCheckRow {
  id: string;
  resource_id: string;
  channel: string;
  identity: string;
  status: string;
  created_at: Date;
  language: string;
}

async function raChallenge(x: Exchange): Promise<void> {
  const principal = await authenticateResource(x.req);
  const body = await readBody(x.req);
  const bodyLanguage = languageOf(isPlainObject(body) ? byLowerKey(body).get('language') : undefined);
  let identity: string;
  let challenge: PassCode;
  let requestId: string | null;
  try {
    if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
    const fields = byLowerKey(body);
    identity = validateIdentity(fields.get('identity'));
    challenge = parsePassCode(fields.get('challenge'), 'Challenge');
    const rawId = fields.get('requestid');
    requestId = typeof rawId === 'string' && UUID.test(rawId.trim()) ? rawId.trim().toLowerCase() : null;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const answer = raAnswer('Denied', 'badRequest', bodyLanguage, {});
    return send(x, 200, { ...answer, message: error.message });
  }
  if (!requestId) return send(x, 200, raAnswer('Denied', 'requestNotValid', bodyLanguage, { identity }));
  const now = new Date();
  const answer = await inTransaction(async (client) => {
    // the request and its user, both locked, in one statement: submissions of one request queue up
    const { rows } = await client.query<ChallengeRow>(
      `SELECT r.id, r.resource_id, r.channel, r.identity, r.status, r.created_at, r.language, ${USER_CHECK_COLUMNS}
         FROM access_requests r JOIN users u ON u.account_id = r.account_id AND u.id = r.user_id
        WHERE r.account_id = $1 AND r.id = $2 FOR UPDATE OF r, u`,
      [principal.accountId, requestId, now],
    );
    const row = rows[0];
    if (!row) {
      // no request, or one without a user (rare: an unknown identity's request is already Denied)
      const { rows: found } = await client.query<{ status: string }>(
        `SELECT status FROM access_requests WHERE account_id = $1 AND id = $2 AND resource_id = $3 AND channel <> 'page' AND lower(identity) = lower($4) FOR UPDATE`,
        [principal.accountId, requestId, principal.resourceId, identity],
      );
      if (found[0]?.status === 'AwaitingAuthentication') {
        await client.query(`UPDATE access_requests SET status = 'Denied', pending_secret_enc = NULL WHERE account_id = $1 AND id = $2`, [
          principal.accountId,
          requestId,
        ]);
        return raAnswer('Denied', 'unknownUser', bodyLanguage, { id: requestId, identity });
      }
      return raAnswer('Denied', 'requestNotValid', bodyLanguage, { identity });
    }
    if (row.resource_id !== principal.resourceId || row.channel === 'page' || row.identity.toLowerCase() !== identity.toLowerCase()) {
      return raAnswer('Denied', 'requestNotValid', bodyLanguage, { identity });
    }
    const language = languageOf(row.language);
    const facts: RaFacts = { id: row.id, identity: row.identity };
    const decide = (status: string) =>
      client.query(
        `UPDATE access_requests SET status = $3, pending_secret_enc = NULL WHERE account_id = $1 AND id = $2 AND ${STILL_AWAITING}`,
        [principal.accountId, row.id, status],
      );
    const status = effectiveStatus(row.status, row.created_at, now.getTime());
    if (status === 'Expired') {
      if (row.status === 'AwaitingAuthentication') await decide('Expired');
      return raAnswer('Denied', 'expired', language, facts);
    }
    if (status !== 'AwaitingAuthentication') return raAnswer('Denied', 'requestNotValid', language, facts);
    if (row.is_locked) return decide('Denied').then(() => raAnswer('Denied', 'locked', language, facts));
    facts.phone = row.phone;
    if (row.locked_scopes > 0) return decide('Denied').then(() => raAnswer('Denied', 'tooManyCodes', language, facts));
    if (!row.authenticators.some((a) => OTP_KINDS.includes(a.kind) && a.secret !== null)) {
      return decide('Denied').then(() => raAnswer('Denied', 'noSecondFactor', language, facts));
    }
    if (challenge.kind !== 'code') return raAnswer('AwaitingAuthentication', 'enterCode', language, facts);
    const match = verifyCode(row.authenticators, challenge.code, now);
    if (match) {
      const spend = spendCode(match, 6);
      const { rows: granted } = await client.query<{ granted: boolean }>(
        `WITH ${spend.cte},
              req AS (UPDATE access_requests SET status = 'Granted', granted_at = $4, authenticator = $5, pending_secret_enc = NULL
                       WHERE account_id = $1 AND id = $2 AND ${STILL_AWAITING} AND EXISTS (SELECT 1 FROM acc) RETURNING id),
              usr AS (UPDATE users SET last_login = $4 WHERE account_id = $1 AND id = $3 AND EXISTS (SELECT 1 FROM req))
         SELECT EXISTS (SELECT 1 FROM req) AS granted`,
        [principal.accountId, row.id, row.user_id, now, match.authenticator.kind, ...spend.params],
      );
      if (granted[0].granted) {
        return raAnswer('Granted', 'granted', language, {
          ...facts,
          authenticator: match.authenticator.kind,
          authenticatorId: match.authenticator.id,
          account: match.authenticator.name,
        });
      }
    }
    const { rows: failed } = await client.query<{ failed_attempts: number; status: string }>(
      `UPDATE access_requests
          SET failed_attempts = failed_attempts + 1,
              status = CASE WHEN failed_attempts + 1 >= $3 THEN 'Denied' ELSE status END
        WHERE account_id = $1 AND id = $2 AND ${STILL_AWAITING}
        RETURNING failed_attempts, status`,
      [principal.accountId, row.id, ACCESS_REQUEST_MAX_FAILED_CODES],
    );
    if (!failed[0] || failed[0].status !== 'AwaitingAuthentication') return raAnswer('Denied', 'wrongCode', language, facts);
    return raAnswer(
      'AwaitingAuthentication',
      { attemptsLeft: ACCESS_REQUEST_MAX_FAILED_CODES - failed[0].failed_attempts },
      language,
      facts,
    );
  });
  send(x, 200, answer);
}

// ---------------------------------------------------------------------------------------------------

async function route(x: Exchange): Promise<void> {
  const url = new URL(x.req.url ?? '/', 'http://baseline');
  const path = url.pathname.toLowerCase().replace(/\/+$/, '');
  const method = x.req.method ?? 'GET';
  if (method === 'GET' && path === '/ping') return send(x, 200, { status: 'ok' });
  if (method === 'GET' && path === '/users') return listUsers(x, url);
  if (method === 'POST' && path === '/users') return createUser(x);
  if (method === 'GET' && path === '/journal') return journal(x, url);
  if (method === 'GET' && path === '/access/requests') return history(x, url);
  if (method === 'POST' && path === '/access/requests') return createAccessRequest(x);
  if (method === 'POST' && path === '/access/requests/ra') return ra(x);
  if (method === 'POST' && path === '/access/requests/ra/challenge') return raChallenge(x);
  throw new HttpError(404, 'Not found.');
}

const server = createServer((req, res) => {
  const exchange: Exchange = { req, res, traceId: randomUUID(), started: performance.now() };
  route(exchange).catch((error: unknown) => {
    if (res.headersSent) return;
    if (error instanceof HttpError)
      return send(exchange, error.status, { model: null, success: false, message: error.message, traceId: exchange.traceId });
    process.stderr.write(`baseline: ${error instanceof Error ? error.stack : String(error)}\n`);
    send(exchange, 500, { model: null, success: false, message: 'Internal error.', traceId: exchange.traceId });
  });
});
server.keepAliveTimeout = 65_000;

function stop(): void {
  flushLog();
  server.close();
  void pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(`baseline listening on http://127.0.0.1:${PORT}\n`);
});
