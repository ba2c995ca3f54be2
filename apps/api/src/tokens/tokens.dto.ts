import { InputFields } from '@twofold/domain';

/** The body of POST /token/refresh: `{AccessToken}`, the key in any case; anything else (`Claims`) is ignored. */
export interface TokenRefreshCommand {
  /** as sent: the service refuses anything that is not one of our tokens */
  accessToken: unknown;
}

/** Never a refusal of its own: a body without a token is answered like a missing token (CONTRACT §8.10). */
export function tokenRefreshCommandOf(body: unknown): TokenRefreshCommand {
  return { accessToken: InputFields.lenient(body).get('accessToken') };
}

/** GET /.well-known/jwks.json (RFC 7517 §5). */
export interface JwksDto {
  keys: { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig' }[];
}
