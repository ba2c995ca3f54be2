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
