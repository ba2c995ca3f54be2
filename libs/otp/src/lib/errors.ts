/**
 * Typed errors of @twofold/otp.
 *
 * Every error carries a stable machine-readable `code`. Messages describe the
 * problem only: they never contain key material (hex, Base32 or bytes), codes or
 * the URI being parsed.
 */

/** Codes of {@link OtpKeyError}. */
export type OtpKeyErrorCode =
  /** The key is not a string (hex/Base32 parsers) or not a Buffer/Uint8Array (secret options). */
  | 'KEY_INVALID_TYPE'
  /** Hex key: a character outside 0-9, a-f, A-F (including whitespace and a `0x` prefix). */
  | 'KEY_NOT_HEX'
  /** Hex key: an odd number of hex digits. */
  | 'KEY_ODD_LENGTH'
  /** Hex key or raw secret: fewer than 16 bytes. */
  | 'KEY_TOO_SHORT'
  /** Hex key or raw secret: more than 64 bytes. */
  | 'KEY_TOO_LONG'
  /** Base32 key: a character outside the RFC 4648 alphabet, misplaced padding, or non-zero trailing bits. */
  | 'KEY_NOT_BASE32'
  /** Base32 key: a length no RFC 4648 encoding can have (unpadded length mod 8 in {1, 3, 6}, or bad padding length). */
  | 'KEY_BASE32_BAD_LENGTH'
  /** Base32 key: decodes to fewer than 16 bytes. */
  | 'KEY_BASE32_TOO_SHORT'
  /** Base32 key: decodes to more than 64 bytes. */
  | 'KEY_BASE32_TOO_LONG';

/** Codes of {@link OtpUriError}. */
export type OtpUriErrorCode =
  /** Not a string, or not of the shape `otpauth://TYPE/LABEL[?QUERY]` (a fragment is refused too). */
  | 'URI_MALFORMED'
  /** Longer than {@link MAX_URI_LENGTH} characters. */
  | 'URI_TOO_LONG'
  /** TYPE is neither `totp` nor `hotp`. */
  | 'URI_BAD_TYPE'
  /** Empty label or account, empty issuer prefix, or more than one unescaped ':' in the label. */
  | 'URI_BAD_LABEL'
  /** Invalid percent-encoding (or, when generating, a string that cannot be encoded). */
  | 'URI_BAD_ENCODING'
  /** A known parameter with an invalid value, or a parameter without '='. */
  | 'URI_BAD_PARAMETER'
  /** A parameter given twice. */
  | 'URI_DUPLICATE_PARAMETER'
  /** No `secret` parameter. */
  | 'URI_MISSING_SECRET'
  /** The `secret` parameter is not a valid Base32 key (see `cause`, an {@link OtpKeyError}). */
  | 'URI_BAD_SECRET'
  /** An `hotp` URI without `counter`. */
  | 'URI_MISSING_COUNTER'
  /** The label's issuer prefix and the `issuer` parameter differ. */
  | 'URI_ISSUER_MISMATCH';

/** Maximum accepted length of an otpauth URI, in characters. */
export const MAX_URI_LENGTH = 4096;

/** Base class of the errors this library throws for bad keys and URIs. */
export abstract class OtpError extends Error {
  abstract readonly code: string;
}

/** A key (hex, Base32 or raw secret) was rejected. The message never contains the key. */
export class OtpKeyError extends OtpError {
  override readonly name = 'OtpKeyError';
  constructor(
    readonly code: OtpKeyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** An otpauth:// URI could not be generated or parsed. The message never contains the URI or the secret. */
export class OtpUriError extends OtpError {
  override readonly name = 'OtpUriError';
  constructor(
    readonly code: OtpUriErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
