import { ACCESS_TOKEN_TTL_SECONDS, AuthenticationMethod, standbyCodeAuthenticationMethod } from './access-requests';

/**
 * Refreshing an access token (`POST /token/refresh`). A token is worth refreshing only as proof of a
 * grant the service made: its `jti` must name a Granted access request of the calling resource (or a
 * token refreshed from one), for the same user, and the token presented must be the newest of that
 * grant and not yet expired. A token is never refreshed from its own word alone: an HS256 token can be
 * signed by whoever holds the resource's secret, with any `sub`, `amr` and claims.
 */

/** The grant a presented token claims, as the service recorded it. */
export interface RecordedGrant {
  /** the user granted, as stored now (null: deleted since) */
  user: { identity: string; isLocked: boolean } | null;
  /** the identity the request was made for */
  requestIdentity: string;
  bypassed: boolean;
  /** when the newest token of this grant expires */
  tokenExpiresAt: Date;
}

export type RefreshRefusal = 'notIssued' | 'userGone' | 'userLocked';

/**
 * Whether the grant backs a token whose `sub` (already put in the account's identity format) is
 * `subject`: the user still exists and is not locked, the subject names that user (as the request
 * or as the user is called now), and the grant's newest token has not expired.
 */
export function refreshRefusal(grant: RecordedGrant, subject: string, now: Date): RefreshRefusal | null {
  if (now.getTime() >= grant.tokenExpiresAt.getTime()) return 'notIssued';
  const named = subject.toLowerCase();
  const names = [grant.requestIdentity, ...(grant.user ? [grant.user.identity] : [])].map((name) => name.toLowerCase());
  if (!names.includes(named)) return 'notIssued';
  if (!grant.user) return 'userGone';
  if (grant.user.isLocked) return 'userLocked';
  return null;
}

/** How the user of a grant was authenticated (`amr`): a bypass, or a checked code. A refreshed token keeps it. */
export function authenticationMethodsOfGrant(grant: { bypassed: boolean; authenticator?: string | null }): AuthenticationMethod[] {
  const standby = standbyCodeAuthenticationMethod(grant.authenticator);
  if (standby) return [standby];
  return grant.bypassed ? ['bypass'] : ['otp'];
}

/** The lifetime of every access token, the grant's own and each refreshed one. */
export const REFRESHED_TOKEN_TTL_SECONDS = ACCESS_TOKEN_TTL_SECONDS;
