import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  authenticationMethodsOfGrant,
  Clock,
  formatIdentity,
  IdentityFormat,
  REFRESHED_TOKEN_TTL_SECONDS,
  refreshRefusal,
} from '@twofold/domain';
import { RefreshedTokensRepository, ResourcesRepository, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { ResourcePrincipal } from '../auth/principal';
import { ModelEnvelope, ok, refused } from '../http/envelope';
import { AccessTokensService, TOKEN_REFUSALS } from './access-tokens.service';
import { TokenRefreshCommand } from './tokens.dto';

export const REFRESH_REFUSALS = {
  missing: 'AccessToken is required.',
  userGone: 'The user of the access token no longer exists.',
  userLocked: 'The user of the access token is locked.',
} as const;

/**
 * POST /token/refresh: a valid, unexpired token issued to the calling resource becomes a new one with
 * the same `sub` and claims, a new `jti`, `iat` and `exp`. Every refusal is a 200 `{model: null,
 * success: false, message}`: the clients read any other status as an outage. The token is never
 * logged nor echoed.
 *
 * Only tokens the service issued are refreshed: in the resource's current format (never converted),
 * and whose `jti` names a grant the service recorded for this resource (the Granted access request, or
 * a token refreshed from it) with the newest token of that grant still alive. The new token's claims
 * and `amr` are the grant's, not the presented token's: an HS256 token can be signed by anyone holding
 * the resource's secret, and its word alone must not become a token the service vouches for.
 */
@Injectable()
export class TokenRefreshService {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly resources: ResourcesRepository,
    private readonly users: UsersRepository,
    private readonly refreshedTokens: RefreshedTokensRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async refresh(principal: ResourcePrincipal, command: TokenRefreshCommand): Promise<ModelEnvelope<string | null>> {
    if (command.accessToken === null) return refused(REFRESH_REFUSALS.missing);
    const resource = await this.resources.findById(principal.accountId, principal.resourceId);
    if (!resource) return refused(TOKEN_REFUSALS.notOurs);
    const now = this.clock.now();
    const check = await this.tokens.verify(resource, command.accessToken, now);
    if (!check.valid) return refused(check.reason);
    const jti = check.payload.jti;
    const grant =
      typeof jti === 'string' ? await this.refreshedTokens.grantOf(principal.accountId, resource.id, jti, ACCESS_TOKEN_TTL_SECONDS) : null;
    if (!grant) return refused(TOKEN_REFUSALS.notIssued);
    // a session is not extended past a lock or the user's removal
    const user = grant.userId ? await this.users.findById(principal.accountId, grant.userId) : null;
    const format = principal.identityFormat;
    const refusal = refreshRefusal(
      {
        user: user && { identity: inFormat(format, user.identity), isLocked: user.isLocked },
        requestIdentity: inFormat(format, grant.identity),
        bypassed: grant.bypassed,
        tokenExpiresAt: new Date(grant.tokenExpiresAt),
      },
      inFormat(format, check.payload.sub),
      now,
    );
    if (refusal === 'notIssued') return refused(TOKEN_REFUSALS.notIssued);
    if (refusal === 'userGone' || !user) return refused(REFRESH_REFUSALS.userGone);
    if (refusal === 'userLocked') return refused(REFRESH_REFUSALS.userLocked);
    const refreshed = { jti: randomUUID(), resourceId: resource.id, requestId: grant.requestId };
    await this.refreshedTokens.record(
      principal.accountId,
      { ...refreshed, expiresAt: new Date(now.getTime() + REFRESHED_TOKEN_TTL_SECONDS * 1000) },
      now,
    );
    // `sub` is the user's stored identity: the same as before unless the user was renamed since
    const token = await this.tokens.sign(resource, {
      identity: user.identity,
      jti: refreshed.jti,
      claims: grant.claims ?? {},
      now,
      amr: authenticationMethodsOfGrant(grant),
    });
    return ok(token);
  }
}

/** A token or request made before the account's identity format was applied names the user as it was then. */
function inFormat(format: IdentityFormat, identity: string): string {
  return formatIdentity(format, identity) ?? identity;
}
