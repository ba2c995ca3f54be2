import { InputFields } from '@twofold/domain';

/** The body of POST /token/refresh: `{AccessToken}`, the key in any case; anything else (`Claims`) is ignored. */
export interface TokenRefreshCommand {
  /** null when none was sent (absent, null or empty); else the text the service verifies as one of our tokens */
  accessToken: string | null;
}

/**
 * Never a refusal of its own: a body without a token is answered like a missing token.
 * A token that is not text is read as its JSON text, which no token of ours can be: verification
 * refuses it as malformed, as before it was read.
 */
export function tokenRefreshCommandOf(body: unknown): TokenRefreshCommand {
  const token = InputFields.lenient(body).get('accessToken');
  if (token === undefined || token === null || token === '') return { accessToken: null };
  return { accessToken: typeof token === 'string' ? token : JSON.stringify(token) };
}

/** GET /.well-known/jwks.json (RFC 7517 §5). */
export interface JwksDto {
  keys: { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig' }[];
}
