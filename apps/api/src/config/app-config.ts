import { isIP } from 'node:net';
import {
  DEFAULT_APPROVAL_WAIT_SECONDS,
  DomainError,
  HttpGatewaySettings,
  MAX_APPROVAL_WAIT_SECONDS,
  MIN_APPROVAL_WAIT_SECONDS,
  parseHttpGatewaySettings,
  parseServicePhoneGateway,
  ServicePhoneGatewaySettings,
} from '@twofold/domain';
import { DatabaseTimeouts, loadEncryptionKey, loadPreviousEncryptionKeys, resolveDataDir, SettingError } from '@twofold/persistence';

/** A request's pending secret outlives its expiry by at most this (StaleAccessRequestsSweeper). */
export const STALE_REQUEST_SWEEP_MS = 60_000;

/** Default SHUTDOWN_TIMEOUT_MS: far above a normal answer and the database's worst case (1.75 s). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * DATABASE_START_ATTEMPTS default: with app/startup.ts's backoff, 0.5+1+2+4+8×5 s = 47.5 s of waiting,
 * enough for PostgreSQL's own start.
 */
export const DEFAULT_DATABASE_START_ATTEMPTS = 10;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  /** absent: the embedded PostgreSQL under dataDir */
  databaseUrl?: string;
  /**
   * DATABASE_LISTEN_URL: where the one connection that LISTENs for credential changes goes, when
   * DATABASE_URL leads through a transaction pooler, which cannot deliver notifications (PostgreSQL
   * itself, or a session-mode pool: docs/operations/scaling.md). Absent: the pool's own settings.
   */
  databaseListenUrl?: string;
  publicUrl: string;
  accessUrl: string;
  /** TOKEN_ISSUER: the `iss` of access tokens; default PUBLIC_URL */
  tokenIssuer: string;
  /** SECRET_ENCRYPTION_KEY: encrypts secrets at rest */
  encryptionKey: Buffer;
  /** SECRET_ENCRYPTION_PREVIOUS_KEYS: keys replaced by a rotation, which only decrypt; absent: none */
  previousEncryptionKeys?: readonly Buffer[];
  smtpUrl?: string;
  /** sender of invitations and enrollment links */
  mailFrom: string;
  logLevel: LogLevel;
  dataDir: string;
  /**
   * TRUSTED_PROXIES: addresses and CIDR ranges of reverse proxies whose `X-Forwarded-For` is believed
   * (the access page records the user's address). Absent or empty: none, the peer's address is used.
   */
  trustedProxies?: readonly string[];
  /**
   * API_DOCS: serve the OpenAPI document and Swagger UI at /docs (default true). The document holds
   * nothing beyond what the API answers anyway; `false` is for operators who publish no surface they
   * do not need (docs/decisions/openapi.md).
   */
  apiDocs: boolean;
  /**
   * CONSOLE: serve the administrators' console and accept its sessions (default true); `false` makes
   * its paths 404 and its cookie mean nothing. Absent in a hand-made config: on.
   */
  console?: boolean;
  /**
   * Where the built console is (index.html and its files); absent: next to the API's bundle, or the
   * workspace's dist/apps/console. Not read from the environment (tests set it).
   */
  consoleAppDir?: string;
  /**
   * DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS: bounded waits on the database, so an
   * outage answers 503 instead of hanging (docs/decisions/outages.md)
   */
  databaseTimeouts: DatabaseTimeouts;
  /** METRICS, METRICS_ALLOW: `GET /metrics` and who may read it (docs/decisions/metrics.md); absent: on, DEFAULT_METRICS_ALLOW */
  metrics?: MetricsSettings;
  /** SHUTDOWN_TIMEOUT_MS: how long requests in flight may take after SIGTERM (app/shutdown.ts); absent: DEFAULT_SHUTDOWN_TIMEOUT_MS */
  shutdownTimeoutMs?: number;
  /**
   * DATABASE_START_ATTEMPTS: connections tried at start, with back-off, before giving up (the database
   * may start after the API). Only `main` reads it; absent in apps built for tests.
   */
  databaseStartAttempts?: number;
  /**
   * LOG_FORMAT: `json` (one object a line, for log collectors) or `pretty` (readable on a terminal);
   * absent: pretty when stdout is a terminal, else json.
   */
  logFormat?: LogFormat;
  /**
   * ACCESS_REQUESTS_PER_MINUTE: access requests one resource may create a minute at least (`POST
   * /access/requests`, `/ra`, `/md`), counted across instances; a resource of an account with more than
   * a quarter of that in licences may create 4 a minute per licence; more is 429
   * (access/access-request-throttle.ts). Absent: DEFAULT_ACCESS_REQUESTS_PER_MINUTE.
   */
  accessRequestsPerMinute?: number;
  /**
   * MAX_CONNECTIONS_PER_CLIENT: open connections one client address may hold (reverse proxies of
   * TRUSTED_PROXIES excepted); absent: DEFAULT_MAX_CONNECTIONS_PER_CLIENT (http/connection-limit.ts)
   */
  maxConnectionsPerClient?: number;
  /**
   * TWOFOLD_CLI_COMMAND: how the operator CLI is run where this API runs, for the start-up hint; absent:
   * `npm run --silent cli --` (a checkout). The image has no npm scripts and sets its own (Dockerfile).
   */
  cliCommand?: string;
  /**
   * APPROVAL_WAIT_SECONDS: how long a call holds its answer while the user confirms the sign-in on
   * their phone (libs/domain approvals.ts); absent: DEFAULT_APPROVAL_WAIT_SECONDS.
   */
  approvalWaitSeconds?: number;
  /**
   * How often awaiting requests past their expiry are written Expired and their pending secrets erased
   * (StaleAccessRequestsSweeper); absent or 0: never (tests sweep by hand). Not read from the environment.
   */
  staleRequestSweepMs?: number;
  /** TELEGRAM_*: the Telegram bot that asks approvals; absent: no bot (TELEGRAM_BOT_TOKEN unset) */
  telegram?: TelegramSettings;
  /**
   * Web Push endpoints over plain http on a loopback address are accepted (a test's push service);
   * otherwise a device's subscription must name an https endpoint. Not read from the environment.
   */
  webPushLoopbackHttp?: boolean;
  /**
   * MOBILE_APP_OFFER (default true): the enrolling pages (enrollment link, the access page's first
   * visit, my factors) offer the Twofold Authenticator app. Web Push needs no configuration, so the
   * offer is on unless a site turns it off (its users cannot install the app, say); absent: on.
   */
  mobileAppOffer?: boolean;
  /**
   * Where the built authenticator app is (index.html and its files); absent: next to the API's
   * bundle, or the workspace's dist/apps/authenticator. Not read from the environment (tests set it).
   */
  authenticatorAppDir?: string;
  /**
   * SMS_GATEWAY, CALL_GATEWAY: the service-wide HTTP template gateways (JSON, as `PUT
   * /settings/sms-gateway` takes them) for accounts without their own; absent: codes go to the outbox
   * (`<dataDir>/outbox/sms/`, `<dataDir>/outbox/calls/`)
   */
  /** SMS_GATEWAY may be an SMS centre over SMPP; a call needs a voice provider's HTTP API */
  phoneGateways?: { sms?: ServicePhoneGatewaySettings; call?: HttpGatewaySettings };
  /**
   * PHONE_GATEWAYS_ALLOW_PRIVATE: an account's own gateway may reach loopback and private addresses
   * (a single-tenant install whose provider is inside the network); default false: public addresses only
   */
  phoneGatewaysAllowPrivate?: boolean;
}

/** How the bot learns of button presses and `/start` messages. */
export const TELEGRAM_UPDATE_MODES = ['webhook', 'polling'] as const;
export type TelegramUpdateMode = (typeof TELEGRAM_UPDATE_MODES)[number];

export interface TelegramSettings {
  /** TELEGRAM_BOT_TOKEN: a secret, never logged, never in an error message */
  botToken: string;
  /** TELEGRAM_API_URL: the Bot API server (default https://api.telegram.org), without a trailing slash */
  apiUrl: string;
  /**
   * TELEGRAM_UPDATES: `webhook` (Telegram POSTs updates to `$PUBLIC_URL/telegram/updates`, registered
   * by the CLI) or `polling` (one instance at a time asks `getUpdates`; for sites without a public URL).
   * Default: webhook when TELEGRAM_WEBHOOK_SECRET is set, else polling.
   */
  updates: TelegramUpdateMode;
  /** TELEGRAM_WEBHOOK_SECRET: what Telegram sends in `X-Telegram-Bot-Api-Secret-Token`; required for the webhook */
  webhookSecret?: string;
}

export const DEFAULT_TELEGRAM_API_URL = 'https://api.telegram.org';

/**
 * A bot token as BotFather issues it: the bot's numeric id, a colon, and the secret part. The value is
 * never repeated in a message: it is a credential.
 */
const TELEGRAM_BOT_TOKEN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,200}$/;
/**
 * Telegram accepts 1-256 characters of `A-Za-z0-9_-` as a webhook's secret token; fewer than 16 would
 * be guessable, so they are refused here.
 */
const TELEGRAM_WEBHOOK_SECRET = /^[A-Za-z0-9_-]{16,256}$/;

function parseTelegram(env: NodeJS.ProcessEnv): TelegramSettings | undefined {
  const token = env['TELEGRAM_BOT_TOKEN']?.trim();
  const secret = env['TELEGRAM_WEBHOOK_SECRET'] || undefined;
  const modeText = env['TELEGRAM_UPDATES']?.trim() || undefined;
  if (!token) {
    if (secret || modeText) throw new ConfigError('TELEGRAM_WEBHOOK_SECRET and TELEGRAM_UPDATES need TELEGRAM_BOT_TOKEN');
    return undefined;
  }
  if (!TELEGRAM_BOT_TOKEN.test(token)) {
    throw new ConfigError('TELEGRAM_BOT_TOKEN must be a bot token as BotFather gives it (<digits>:<20 or more letters, digits, _ or ->)');
  }
  if (secret !== undefined && !TELEGRAM_WEBHOOK_SECRET.test(secret)) {
    throw new ConfigError('TELEGRAM_WEBHOOK_SECRET must be 16 to 256 characters of A-Z, a-z, 0-9, _ and -');
  }
  const updates = (modeText ?? (secret ? 'webhook' : 'polling')) as TelegramUpdateMode;
  if (!TELEGRAM_UPDATE_MODES.includes(updates)) throw new ConfigError(`TELEGRAM_UPDATES must be webhook or polling, got "${modeText}"`);
  if (updates === 'webhook' && !secret) throw new ConfigError('TELEGRAM_UPDATES=webhook needs TELEGRAM_WEBHOOK_SECRET');
  const apiUrl = parseUrl('TELEGRAM_API_URL', env['TELEGRAM_API_URL'] || DEFAULT_TELEGRAM_API_URL, ['http:', 'https:']);
  return { botToken: token, apiUrl, updates, webhookSecret: secret };
}

function parseApprovalWaitSeconds(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_APPROVAL_WAIT_SECONDS;
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || value < MIN_APPROVAL_WAIT_SECONDS || value > MAX_APPROVAL_WAIT_SECONDS) {
    throw new ConfigError(
      `APPROVAL_WAIT_SECONDS must be an integer from ${MIN_APPROVAL_WAIT_SECONDS} to ${MAX_APPROVAL_WAIT_SECONDS} (clients give up after 60 s), got "${text}"`,
    );
  }
  return value;
}

export interface MetricsSettings {
  enabled: boolean;
  /** addresses and CIDR ranges of the clients (resolved behind TRUSTED_PROXIES) that may scrape */
  allow: readonly string[];
}

/**
 * Loopback and the private ranges: a Prometheus inside the deployment's network scrapes, a client
 * on the internet gets 404. The metrics hold no secret, but traffic and lockout counts tell an
 * attacker how their guessing goes.
 */
export const DEFAULT_METRICS_ALLOW: readonly string[] = ['127.0.0.0/8', '::1', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'];

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Opening a connection or waiting for a free one: a live server on a network answers in milliseconds. */
export const DEFAULT_DATABASE_CONNECT_TIMEOUT_MS = 1000;
/**
 * One statement: the heaviest read (a day page's total over 1 000 000 rows, `npm run bench:api`) takes
 * about 150 ms, so 1.5 s leaves a tenfold margin and still answers a frozen server within 2 s.
 */
export const DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS = 1500;

export class ConfigError extends Error {}

function parseUrl(name: string, value: string, protocols: string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${value}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return value.replace(/\/+$/, '');
}

/**
 * TOKEN_ISSUER: an absolute http(s) URL like PUBLIC_URL, but kept exactly as written (a trailing slash
 * included): clients compare `iss` with their configured value as a string. An issuer identifies,
 * so it carries no credentials, query or fragment.
 */
export function parseTokenIssuer(value: string): string {
  parseUrl('TOKEN_ISSUER', value, ['http:', 'https:']);
  const url = new URL(value);
  if (value !== value.trim() || url.username || url.password || url.search || url.hash || /[?#]/.test(value)) {
    throw new ConfigError(`TOKEN_ISSUER must be an absolute http or https URL without credentials, query or fragment, got "${value}"`);
  }
  return value;
}

/** `10.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`: each entry an IP address, optionally with a prefix length. */
export function parseTrustedProxies(text: string | undefined): string[] {
  return parseAddressList('TRUSTED_PROXIES', text);
}

function parseAddressList(name: string, text: string | undefined): string[] {
  if (!text || text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const entry = raw.trim();
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxPrefix = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || rest.length > 0) {
      throw new ConfigError(`${name} must be a comma-separated list of IP addresses or CIDR ranges, got "${entry}"`);
    }
    return entry;
  });
}

/** `true`/`false` (also `1`/`0`, `on`/`off`, `yes`/`no`, any case); absent or empty: the default. */
export function parseBooleanSetting(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  const text = value.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(text)) return true;
  if (['false', '0', 'off', 'no'].includes(text)) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}"`);
}

/**
 * The floor of the per-resource limit, 100 a second: what a small account's resource may create, far
 * above its users' sign-ins; larger accounts get 4 a minute per licence (accessRequestLimit).
 */
export const DEFAULT_ACCESS_REQUESTS_PER_MINUTE = 6000;

function parseAccessRequestsPerMinute(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_ACCESS_REQUESTS_PER_MINUTE;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > 1_000_000) {
    throw new ConfigError(`ACCESS_REQUESTS_PER_MINUTE must be an integer from 1 to 1000000, got "${text}"`);
  }
  return Number(text);
}

function parseMilliseconds(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 600_000) {
    throw new ConfigError(`${name} must be an integer number of milliseconds from 1 to 600000, got "${text}"`);
  }
  return Number(text);
}

/** Reads and validates the environment; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolveDataDir(env);
  const portText = env['PORT'] ?? '3000';
  if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new ConfigError(`PORT must be an integer from 1 to 65535, got "${portText}"`);
  }
  const port = Number(portText);
  const databaseUrl = env['DATABASE_URL'] ? parseUrl('DATABASE_URL', env['DATABASE_URL'], ['postgres:', 'postgresql:']) : undefined;
  const databaseListenUrl = env['DATABASE_LISTEN_URL']
    ? parseUrl('DATABASE_LISTEN_URL', env['DATABASE_LISTEN_URL'], ['postgres:', 'postgresql:'])
    : undefined;
  const publicUrl = parseUrl('PUBLIC_URL', env['PUBLIC_URL'] || `http://localhost:${port}`, ['http:', 'https:']);
  const accessUrl = parseUrl('ACCESS_URL', env['ACCESS_URL'] || `${publicUrl}/access`, ['http:', 'https:']);
  const tokenIssuer = env['TOKEN_ISSUER'] ? parseTokenIssuer(env['TOKEN_ISSUER']) : publicUrl;
  const smtpUrl = env['SMTP_URL'] ? parseUrl('SMTP_URL', env['SMTP_URL'], ['smtp:', 'smtps:']) : undefined;
  const mailFrom = env['MAIL_FROM'] || 'Twofold <no-reply@localhost>';
  if (/[\r\n]/.test(mailFrom)) throw new ConfigError('MAIL_FROM must be one line');
  const logLevel = (env['LOG_LEVEL'] || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  let encryptionKey: Buffer;
  let previousEncryptionKeys: Buffer[];
  try {
    encryptionKey = loadEncryptionKey(env, dataDir, databaseUrl === undefined);
    previousEncryptionKeys = loadPreviousEncryptionKeys(env);
  } catch (error) {
    if (error instanceof SettingError) throw new ConfigError(error.message);
    throw error;
  }
  const logFormat = (env['LOG_FORMAT'] || undefined) as LogFormat | undefined;
  if (logFormat !== undefined && !LOG_FORMATS.includes(logFormat))
    throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}`);
  const attemptsText = env['DATABASE_START_ATTEMPTS'] || String(DEFAULT_DATABASE_START_ATTEMPTS);
  if (!/^\d+$/.test(attemptsText) || Number(attemptsText) < 1 || Number(attemptsText) > 1000) {
    throw new ConfigError(`DATABASE_START_ATTEMPTS must be an integer from 1 to 1000, got "${attemptsText}"`);
  }
  const trustedProxies = parseTrustedProxies(env['TRUSTED_PROXIES']);
  const apiDocs = parseBooleanSetting('API_DOCS', env['API_DOCS'], true);
  const consoleEnabled = parseBooleanSetting('CONSOLE', env['CONSOLE'], true);
  const metrics: MetricsSettings = {
    enabled: parseBooleanSetting('METRICS', env['METRICS'], true),
    allow: env['METRICS_ALLOW']?.trim() ? parseAddressList('METRICS_ALLOW', env['METRICS_ALLOW']) : DEFAULT_METRICS_ALLOW,
  };
  const databaseTimeouts = {
    connectTimeoutMs: parseMilliseconds(
      'DATABASE_CONNECT_TIMEOUT_MS',
      env['DATABASE_CONNECT_TIMEOUT_MS'],
      DEFAULT_DATABASE_CONNECT_TIMEOUT_MS,
    ),
    statementTimeoutMs: parseMilliseconds(
      'DATABASE_STATEMENT_TIMEOUT_MS',
      env['DATABASE_STATEMENT_TIMEOUT_MS'],
      DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS,
    ),
  };
  const cliCommand = env['TWOFOLD_CLI_COMMAND']?.trim() || undefined;
  if (cliCommand !== undefined && /[\r\n]/.test(cliCommand)) throw new ConfigError('TWOFOLD_CLI_COMMAND must be one line');
  const shutdownTimeoutMs = parseMilliseconds('SHUTDOWN_TIMEOUT_MS', env['SHUTDOWN_TIMEOUT_MS'], DEFAULT_SHUTDOWN_TIMEOUT_MS);
  const accessRequestsPerMinute = parseAccessRequestsPerMinute(env['ACCESS_REQUESTS_PER_MINUTE']);
  const maxConnectionsText = env['MAX_CONNECTIONS_PER_CLIENT']?.trim();
  if (maxConnectionsText && (!/^\d+$/.test(maxConnectionsText) || Number(maxConnectionsText) < 1 || Number(maxConnectionsText) > 100_000)) {
    throw new ConfigError(`MAX_CONNECTIONS_PER_CLIENT must be an integer from 1 to 100000, got "${maxConnectionsText}"`);
  }
  const maxConnectionsPerClient = maxConnectionsText ? Number(maxConnectionsText) : undefined;
  const approvalWaitSeconds = parseApprovalWaitSeconds(env['APPROVAL_WAIT_SECONDS']);
  const telegram = parseTelegram(env);
  const phoneGateways = {
    sms: parsePhoneGateway('SMS_GATEWAY', env, parseServicePhoneGateway),
    call: parsePhoneGateway('CALL_GATEWAY', env, parseHttpGatewaySettings),
  };
  const phoneGatewaysAllowPrivate = parseBooleanSetting('PHONE_GATEWAYS_ALLOW_PRIVATE', env['PHONE_GATEWAYS_ALLOW_PRIVATE'], false);
  const mobileAppOffer = parseBooleanSetting('MOBILE_APP_OFFER', env['MOBILE_APP_OFFER'], true);
  return {
    port,
    databaseUrl,
    databaseListenUrl,
    publicUrl,
    accessUrl,
    tokenIssuer,
    encryptionKey,
    previousEncryptionKeys,
    smtpUrl,
    mailFrom,
    logLevel,
    dataDir,
    trustedProxies,
    apiDocs,
    console: consoleEnabled,
    databaseTimeouts,
    metrics,
    shutdownTimeoutMs,
    databaseStartAttempts: Number(attemptsText),
    logFormat,
    accessRequestsPerMinute,
    maxConnectionsPerClient,
    cliCommand,
    approvalWaitSeconds,
    staleRequestSweepMs: STALE_REQUEST_SWEEP_MS,
    telegram,
    phoneGateways,
    phoneGatewaysAllowPrivate,
    mobileAppOffer,
  };
}

/** A service-wide gateway: its JSON checked like the account's own; the message never repeats the value (it holds secrets). */
function parsePhoneGateway<T>(name: string, env: NodeJS.ProcessEnv, parse: (raw: unknown) => T): T | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError(`${name} must be a JSON object (an HTTP template gateway)`);
  }
  try {
    return parse(raw);
  } catch (error) {
    if (error instanceof DomainError) throw new ConfigError(`${name}: ${error.message}`);
    throw error;
  }
}
