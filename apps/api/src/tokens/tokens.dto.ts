/** The body of POST /token/refresh: `{AccessToken}`, the key in any case; anything else (`Claims`) is ignored. */
export interface TokenRefreshCommand {
  /** as sent: the service refuses anything that is not one of our tokens */
  accessToken: unknown;
}

export function tokenRefreshCommandOf(body: unknown): TokenRefreshCommand {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { accessToken: undefined };
  const entry = Object.entries(body).find(([key]) => key.toLowerCase() === 'accesstoken');
  return { accessToken: entry?.[1] };
}

/** GET /.well-known/jwks.json (RFC 7517 §5). */
export interface JwksDto {
  keys: { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig' }[];
}
