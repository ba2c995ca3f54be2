/**
 * otpauth:// Key URIs (Google Authenticator "Key Uri Format"):
 *
 *   otpauth://TYPE/ISSUER:ACCOUNT?secret=BASE32&issuer=ISSUER&algorithm=SHA1&digits=6&period=30
 *   otpauth://hotp/ISSUER:ACCOUNT?secret=BASE32&issuer=ISSUER&algorithm=SHA1&digits=6&counter=0
 *
 * Components are percent-encoded with `encodeURIComponent`, so a space is `%20`, a
 * ':' inside the issuer or account is `%3A` (the only literal ':' of the label is the
 * separator), '@' is `%40`, and so on.
 */
import { OtpKeyError, OtpUriError, MAX_URI_LENGTH } from './errors';
import { checkSecret, parseBase32Key, toBase32 } from './keys';
import { MAX_STEP_SECONDS, MIN_STEP_SECONDS, type OtpAlgorithm, type OtpDigits, checkAlgorithm, checkDigits, checkInteger } from './types';

interface OtpauthCommon {
  /** The account name (e.g. an e-mail address). Non-empty. */
  account: string;
  /** The provider or service. Written both as the label prefix and as the `issuer` parameter. */
  issuer?: string;
  /** The shared secret, 16 to 64 bytes; written as unpadded Base32. */
  secret: Uint8Array;
  /** Default 'SHA1'. */
  algorithm?: OtpAlgorithm;
  /** Default 6. */
  digits?: OtpDigits;
}

export interface OtpauthTotpOptions extends OtpauthCommon {
  type: 'totp';
  /** Step in seconds, 1 to 3600. Default 30. */
  period?: number;
}

export interface OtpauthHotpOptions extends OtpauthCommon {
  type: 'hotp';
  /** Initial counter. Default 0. */
  counter?: number;
}

export type OtpauthUriOptions = OtpauthTotpOptions | OtpauthHotpOptions;

interface OtpauthParsedCommon {
  account: string;
  /** From the `issuer` parameter, else from the label prefix; absent if neither is there. */
  issuer?: string;
  secret: Buffer;
  algorithm: OtpAlgorithm;
  digits: OtpDigits;
}

/** What {@link parseOtpauthUri} returns: every optional field resolved to its default. */
export type OtpauthUri =
  | (OtpauthParsedCommon & { type: 'totp'; period: number })
  | (OtpauthParsedCommon & { type: 'hotp'; counter: number });

function encode(value: string, what: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new OtpUriError('URI_BAD_ENCODING', `${what} is not a well-formed Unicode string`);
  }
}

/**
 * Build an otpauth:// URI. All parameters are written explicitly (algorithm, digits,
 * and period or counter), the secret as upper-case Base32 without padding.
 *
 * @throws {OtpKeyError} for a bad secret; {@link OtpUriError} `URI_BAD_LABEL`,
 *   `URI_BAD_PARAMETER`, `URI_BAD_ENCODING`; RangeError for other bad options.
 */
export function generateOtpauthUri(opts: OtpauthUriOptions): string {
  if (opts === null || typeof opts !== 'object') throw new TypeError('options object expected');
  if (opts.type !== 'totp' && opts.type !== 'hotp') throw new RangeError("type must be 'totp' or 'hotp'");
  const secret = checkSecret(opts.secret);
  const algorithm = checkAlgorithm(opts.algorithm ?? 'SHA1');
  const digits = checkDigits(opts.digits ?? 6);
  if (typeof opts.account !== 'string' || opts.account === '') {
    throw new OtpUriError('URI_BAD_LABEL', 'account must be a non-empty string');
  }
  if (opts.issuer !== undefined && opts.account.startsWith(' ')) {
    // "Issuer:%20account" reads back as "account": optional spaces may precede the account.
    throw new OtpUriError('URI_BAD_LABEL', 'account must not start with a space when an issuer is given');
  }
  if (opts.issuer !== undefined && (typeof opts.issuer !== 'string' || opts.issuer === '')) {
    throw new OtpUriError('URI_BAD_PARAMETER', 'issuer must be a non-empty string when given');
  }
  const account = encode(opts.account, 'account');
  const issuer = opts.issuer === undefined ? undefined : encode(opts.issuer, 'issuer');
  const label = issuer === undefined ? account : `${issuer}:${account}`;
  const params = [`secret=${toBase32(secret)}`];
  if (issuer !== undefined) params.push(`issuer=${issuer}`);
  params.push(`algorithm=${algorithm}`, `digits=${digits}`);
  if (opts.type === 'totp') {
    params.push(`period=${checkInteger('period', opts.period ?? 30, MIN_STEP_SECONDS, MAX_STEP_SECONDS)}`);
  } else {
    params.push(`counter=${checkInteger('counter', opts.counter ?? 0, 0, Number.MAX_SAFE_INTEGER)}`);
  }
  return `otpauth://${opts.type}/${label}?${params.join('&')}`;
}

const SHAPE = /^otpauth:\/\/([^/?#]*)\/([^?#]*)(?:\?([^#]*))?$/i;
const KNOWN = new Set(['secret', 'issuer', 'algorithm', 'digits', 'period', 'counter']);

function decode(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new OtpUriError('URI_BAD_ENCODING', `otpauth URI: invalid percent-encoding in ${what}`);
  }
}

function badParameter(name: string, expected: string): OtpUriError {
  return new OtpUriError('URI_BAD_PARAMETER', `otpauth URI: parameter '${name}' is invalid (expected ${expected})`);
}

function parseDecimal(name: string, value: string, min: number, max: number): number {
  const n = /^[0-9]{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw badParameter(name, `an integer from ${min} to ${max}`);
  return n;
}

/**
 * Parse an otpauth:// URI into its fields, with defaults filled in (SHA1, 6 digits,
 * period 30). The scheme and type are case-insensitive; '+' is a literal plus, not a
 * space; unknown parameters (e.g. `image`) are ignored; `period` is ignored for hotp
 * and `counter` for totp.
 *
 * @throws {OtpUriError} on malformed input (see the codes); the message never
 *   contains the URI or the secret.
 */
export function parseOtpauthUri(uri: string): OtpauthUri {
  if (typeof uri !== 'string') throw new OtpUriError('URI_MALFORMED', 'otpauth URI must be a string');
  if (uri.length > MAX_URI_LENGTH) {
    throw new OtpUriError('URI_TOO_LONG', `otpauth URI is longer than ${MAX_URI_LENGTH} characters`);
  }
  const match = SHAPE.exec(uri);
  if (match === null) {
    throw new OtpUriError('URI_MALFORMED', 'not an otpauth URI of the form otpauth://TYPE/LABEL?PARAMETERS');
  }
  const [, rawType, rawLabel, query = ''] = match;
  const type = rawType.toLowerCase();
  if (type !== 'totp' && type !== 'hotp') throw new OtpUriError('URI_BAD_TYPE', "otpauth URI: type must be 'totp' or 'hotp'");

  // Label: "account" or "issuer:account" (optional spaces before the account).
  const parts = rawLabel.split(':');
  if (parts.length > 2) throw new OtpUriError('URI_BAD_LABEL', "otpauth URI: label has more than one unescaped ':'");
  let labelIssuer: string | undefined;
  let account: string;
  if (parts.length === 2) {
    labelIssuer = decode(parts[0], 'the label');
    account = decode(parts[1], 'the label').replace(/^ +/, '');
    if (labelIssuer === '') throw new OtpUriError('URI_BAD_LABEL', 'otpauth URI: empty issuer before the label colon');
  } else {
    account = decode(parts[0], 'the label');
  }
  if (account === '') throw new OtpUriError('URI_BAD_LABEL', 'otpauth URI: empty account name');

  const params = new Map<string, string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq === -1) throw new OtpUriError('URI_BAD_PARAMETER', "otpauth URI: a parameter has no '='");
    const name = decode(pair.slice(0, eq), 'a parameter name');
    if (!KNOWN.has(name)) continue;
    if (params.has(name)) throw new OtpUriError('URI_DUPLICATE_PARAMETER', `otpauth URI: parameter '${name}' appears twice`);
    params.set(name, decode(pair.slice(eq + 1), `parameter '${name}'`));
  }

  const secretText = params.get('secret');
  if (secretText === undefined || secretText === '') {
    throw new OtpUriError('URI_MISSING_SECRET', "otpauth URI: no 'secret' parameter");
  }
  let secret: Buffer;
  try {
    secret = parseBase32Key(secretText);
  } catch (e) {
    const code = e instanceof OtpKeyError ? ` (${e.code})` : '';
    throw new OtpUriError('URI_BAD_SECRET', `otpauth URI: 'secret' is not a valid Base32 key${code}`, { cause: e });
  }

  let issuer = params.get('issuer');
  if (issuer === '') throw badParameter('issuer', 'a non-empty string');
  if (issuer !== undefined && labelIssuer !== undefined && issuer !== labelIssuer) {
    throw new OtpUriError('URI_ISSUER_MISMATCH', "otpauth URI: the label's issuer prefix differs from the 'issuer' parameter");
  }
  issuer ??= labelIssuer;

  const algorithmText = params.get('algorithm')?.toUpperCase() ?? 'SHA1';
  if (algorithmText !== 'SHA1' && algorithmText !== 'SHA256' && algorithmText !== 'SHA512') {
    throw badParameter('algorithm', 'SHA1, SHA256 or SHA512');
  }
  const digitsText = params.get('digits') ?? '6';
  if (digitsText !== '6' && digitsText !== '7' && digitsText !== '8') throw badParameter('digits', '6, 7 or 8');

  const common: OtpauthParsedCommon = {
    account,
    ...(issuer === undefined ? {} : { issuer }),
    secret,
    algorithm: algorithmText,
    digits: Number(digitsText) as OtpDigits,
  };
  if (type === 'totp') {
    const periodText = params.get('period');
    const period = periodText === undefined ? 30 : parseDecimal('period', periodText, MIN_STEP_SECONDS, MAX_STEP_SECONDS);
    return { type, ...common, period };
  }
  const counterText = params.get('counter');
  if (counterText === undefined) throw new OtpUriError('URI_MISSING_COUNTER', "otpauth URI: hotp needs a 'counter' parameter");
  return {
    type,
    ...common,
    counter: parseDecimal('counter', counterText, 0, Number.MAX_SAFE_INTEGER),
  };
}
