import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock, formatIdentity } from '@twofold/domain';
import { ResourcesRepository, UsersRepository } from '@twofold/persistence';
import { CLOCK } from '../app/tokens';
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
 * POST /token/refresh (CONTRACT §8.10): a valid, unexpired token issued to the calling resource
 * becomes a new one with the same `sub` and claims, a new `jti`, `iat` and `exp`, in the resource's
 * current token format. Every refusal is a 200 `{model: null, success: false, message}` (§8.1): the
 * clients read any other status as an outage. The token is never logged nor echoed.
 */
@Injectable()
export class TokenRefreshService {
  constructor(
    private readonly tokens: AccessTokensService,
    private readonly resources: ResourcesRepository,
    private readonly users: UsersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async refresh(principal: ResourcePrincipal, command: TokenRefreshCommand): Promise<ModelEnvelope<string | null>> {
    if (command.accessToken === null) return refused(REFRESH_REFUSALS.missing);
    const resource = await this.resources.findById(principal.accountId, principal.resourceId);
    if (!resource) return refused(TOKEN_REFUSALS.notOurs);
    const now = this.clock.now();
    const check = await this.tokens.verify(resource, command.accessToken, now);
    if (!check.valid) return refused(check.reason);
    // a session is not extended past a lock or the user's removal
    // a token issued before the account's identity format was applied names the user as it was then
    const sub = formatIdentity(principal.identityFormat, check.payload.sub) ?? check.payload.sub;
    const user = await this.users.findByIdentity(principal.accountId, sub);
    if (!user) return refused(REFRESH_REFUSALS.userGone);
    if (user.isLocked) return refused(REFRESH_REFUSALS.userLocked);
    // how the user was authenticated does not change by refreshing: the token keeps its `amr`
    const amr = Array.isArray(check.payload.amr)
      ? check.payload.amr.filter((method): method is string => typeof method === 'string')
      : undefined;
    // `sub` is the user's stored identity (issue 14): the same as before unless the user was renamed since
    const token = await this.tokens.sign(resource, { identity: user.identity, jti: randomUUID(), claims: check.payload, now, amr });
    return ok(token);
  }
}
