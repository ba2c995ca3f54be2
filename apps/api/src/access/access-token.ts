import { accessTokenClaims } from '@twofold/domain';
import { SignJWT } from 'jose';

/**
 * The AccessToken of CONTRACT §7: HS256 keyed by the UTF-8 bytes of the resource's API secret; iss,
 * aud, sub, jti, iat, exp set by us over whatever the request's claims say.
 */
export function signAccessToken(options: {
  resourceSecret: string;
  issuer: string;
  audience: string;
  identity: string;
  requestId: string;
  claims: Record<string, unknown>;
  now: Date;
}): Promise<string> {
  const payload = accessTokenClaims(options.claims, {
    iss: options.issuer,
    aud: options.audience,
    sub: options.identity,
    jti: options.requestId,
    iat: Math.floor(options.now.getTime() / 1000),
  });
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(options.resourceSecret));
}
