import { ValidationFailed } from './domain-error';

/**
 * An HTTP template gateway: how a code is handed to the customer's SMS or voice provider. Most
 * providers take one HTTP request holding the number and the text (as query, JSON or form fields),
 * authenticated by Basic auth or a header, and answer 2xx with a body that says whether the message
 * was taken. `{phone}` (E.164), `{text}` (the message, or what the call reads) and `{code}` are
 * replaced in the URL (URL-encoded) and in the body's values.
 */
export interface HttpGatewaySettings {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  /** how `body` is sent; `none` for a GET whose URL carries everything */
  bodyFormat: 'json' | 'form' | 'none';
  body: Record<string, string>;
  headers: Record<string, string>;
  basicAuth: { username: string; password: string } | null;
  /** the message was taken when the status is 2xx and, when set, the answer's body contains this text */
  successContains: string | null;
  timeoutMs: number;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 5_000;
/** A client waits 60-65 s for an answer; a gateway gets at most this much of it. */
export const MAX_GATEWAY_TIMEOUT_MS = 10_000;

/** The values a template's `{phone}`, `{text}` and `{code}` stand for. */
export type GatewayPlaceholders = Record<'phone' | 'text' | 'code', string>;

/** Fills `{phone}`, `{text}` and `{code}` in a template value; `encode` escapes each value (URL templates). */
export function fillGatewayTemplate(template: string, values: GatewayPlaceholders, encode: (value: string) => string = (v) => v): string {
  return template.replace(/\{(phone|text|code)\}/g, (_all, key: keyof GatewayPlaceholders) => encode(values[key]));
}

function stringMap(raw: unknown, field: string): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationFailed(`${field} must be an object of strings.`);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new ValidationFailed(`${field}.${key} must be a string.`);
    out[key] = String(value);
  }
  return out;
}

function field(raw: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(raw).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : raw[key];
}

/** An HTTP template gateway as sent to `PUT /settings/sms-gateway` or in SMS_GATEWAY/CALL_GATEWAY (JSON); keys in any case. */
export function parseHttpGatewaySettings(raw: unknown): HttpGatewaySettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationFailed('The gateway must be an object.');
  const body = raw as Record<string, unknown>;
  const url = field(body, 'url');
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(url) || url.length > 2000)
    throw new ValidationFailed('url must be an http(s) URL.');
  const method = String(field(body, 'method') ?? 'POST').toUpperCase();
  if (method !== 'GET' && method !== 'POST' && method !== 'PUT') throw new ValidationFailed('method must be GET, POST or PUT.');
  const format = String(field(body, 'bodyFormat') ?? (method === 'GET' ? 'none' : 'json')).toLowerCase();
  if (format !== 'json' && format !== 'form' && format !== 'none') throw new ValidationFailed('bodyFormat must be json, form or none.');
  if (method === 'GET' && format !== 'none') throw new ValidationFailed('A GET gateway carries no body: bodyFormat must be none.');
  const auth = field(body, 'basicAuth');
  let basicAuth: HttpGatewaySettings['basicAuth'] = null;
  if (auth !== undefined && auth !== null) {
    const pair = stringMap(auth, 'basicAuth');
    const username = field(pair, 'username');
    const password = field(pair, 'password');
    if (typeof username !== 'string' || typeof password !== 'string') throw new ValidationFailed('basicAuth needs username and password.');
    basicAuth = { username, password };
  }
  const success = field(body, 'successContains');
  if (success !== undefined && success !== null && (typeof success !== 'string' || success === ''))
    throw new ValidationFailed('successContains must be a non-empty string.');
  const timeout = field(body, 'timeoutMs') ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 100 || timeout > MAX_GATEWAY_TIMEOUT_MS)
    throw new ValidationFailed(`timeoutMs must be an integer from 100 to ${MAX_GATEWAY_TIMEOUT_MS}.`);
  return {
    url,
    method,
    bodyFormat: format,
    body: stringMap(field(body, 'body'), 'body'),
    headers: stringMap(field(body, 'headers'), 'headers'),
    basicAuth,
    successContains: (success as string | undefined) ?? null,
    timeoutMs: timeout,
  };
}

/**
 * What a gateway's settings may show: where it sends and how, never its secrets (the Basic password,
 * header values, body values that are not placeholders may all hold keys).
 */
export function describeHttpGateway(settings: HttpGatewaySettings): {
  url: string;
  method: string;
  bodyFormat: string;
  basicAuth: boolean;
  headers: string[];
} {
  const url = new URL(settings.url);
  return {
    url: `${url.protocol}//${url.host}${url.pathname}`,
    method: settings.method,
    bodyFormat: settings.bodyFormat,
    basicAuth: settings.basicAuth !== null,
    headers: Object.keys(settings.headers),
  };
}

/**
 * An SMS centre reached over SMPP (v3.4/v5: bind as a transmitter, `submit_sm`, unbind), for an
 * operator whose provider offers SMPP rather than an HTTP API. Service-wide only (`SMS_GATEWAY`):
 * an account's own gateway is an HTTP template (docs/decisions/sms-and-calls.md says why).
 */
export interface SmppGatewaySettings {
  kind: 'smpp';
  host: string;
  port: number;
  /** `ssmpp://`: TLS */
  tls: boolean;
  systemId: string;
  password: string;
  /** the sender shown on the phone (an alphanumeric name or a number); null: the SMSC's default */
  sourceAddr: string | null;
  timeoutMs: number;
}

/** What `SMS_GATEWAY` holds: an HTTP template, or `{"kind": "smpp", …}`. */
export type ServicePhoneGatewaySettings = HttpGatewaySettings | SmppGatewaySettings;

export function isSmppGateway(settings: ServicePhoneGatewaySettings): settings is SmppGatewaySettings {
  return 'kind' in settings && settings.kind === 'smpp';
}

/** `{"kind": "smpp", "url": "smpp://host:port" | "ssmpp://host:port", "systemId", "password", "sourceAddr"?, "timeoutMs"?}`; keys in any case. */
export function parseSmppGatewaySettings(raw: unknown): SmppGatewaySettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationFailed('The gateway must be an object.');
  const body = raw as Record<string, unknown>;
  const url = field(body, 'url');
  const match = typeof url === 'string' ? /^(s?smpp):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?\/?$/i.exec(url) : null;
  if (!match) throw new ValidationFailed('url must be smpp://host:port or ssmpp://host:port.');
  const tls = match[1].toLowerCase() === 'ssmpp';
  const port = match[3] ? Number(match[3]) : tls ? 3550 : 2775;
  if (port < 1 || port > 65535) throw new ValidationFailed('url must be smpp://host:port or ssmpp://host:port.');
  const systemId = field(body, 'systemId');
  const password = field(body, 'password');
  // SMPP's own bounds: system_id at most 15 characters, password at most 8
  if (typeof systemId !== 'string' || systemId === '' || systemId.length > 15)
    throw new ValidationFailed('systemId must be 1 to 15 characters.');
  if (typeof password !== 'string' || password.length > 8) throw new ValidationFailed('password must be a string of at most 8 characters.');
  const source = field(body, 'sourceAddr');
  if (source !== undefined && source !== null && (typeof source !== 'string' || source === '' || source.length > 20))
    throw new ValidationFailed('sourceAddr must be 1 to 20 characters.');
  const timeout = field(body, 'timeoutMs') ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 100 || timeout > MAX_GATEWAY_TIMEOUT_MS)
    throw new ValidationFailed(`timeoutMs must be an integer from 100 to ${MAX_GATEWAY_TIMEOUT_MS}.`);
  return {
    kind: 'smpp',
    host: match[2].replace(/^\[|\]$/g, ''),
    port,
    tls,
    systemId,
    password,
    sourceAddr: (source as string | undefined) ?? null,
    timeoutMs: timeout,
  };
}

/** A service gateway as `SMS_GATEWAY` holds it: `kind: "smpp"` for an SMS centre, else an HTTP template. */
export function parseServicePhoneGateway(raw: unknown): ServicePhoneGatewaySettings {
  const kind = typeof raw === 'object' && raw !== null ? field(raw as Record<string, unknown>, 'kind') : undefined;
  if (kind === undefined || kind === 'http') return parseHttpGatewaySettings(raw);
  if (kind === 'smpp') return parseSmppGatewaySettings(raw);
  throw new ValidationFailed('kind must be http or smpp.');
}
