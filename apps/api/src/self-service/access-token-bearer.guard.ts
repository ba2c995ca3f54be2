import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_TTL_SECONDS, Clock } from '@twofold/domain';
import { ApiKeysRepository, RefreshedTokensRepository, ResourcesRepository } from '@twofold/persistence';
import { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { CLOCK } from '../config/injection-tokens';
import { AuthenticationRequired, TooManyAttempts } from '../http/api-errors';
import { ClientAddressResolver } from '../http/client-address';
import { ACCESS_TOKEN_MAX_CHARS, AccessTokensService, TOKEN_REFUSALS } from '../tokens/access-tokens.service';
import { AccessTokenHolder } from '../auth/access-token-holder';
import { AuthThrottle } from '../auth/auth-throttle';

/** An API key as resources have them: anything else in `aud` is not one of ours, and never reaches the database. */
const PLAUSIBLE_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** The token of `Authorization: Bearer <token>`, or undefined. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * `Authorization: Bearer <access token>`: only a token this service issued opens the route. Its `aud`
 * names the resource (and so the account), which must still exist; the signature is checked in that
 * resource's current format (HS256 under its secret, RS256 under one of our published keys), with our
 * issuer and an unexpired `exp`; and its `jti` must name a grant recorded for that resource (the
 * Granted access request, or a token refreshed from it). A token signed for one resource is refused
 * by every other, whatever its claims say. Anything else is 401; a token no secret of ours signed
 * counts as a failed authentication for the client's throttle, as a wrong Basic secret does.
 */
@Injectable()
export class AccessTokenBearerGuard implements CanActivate {
  private readonly decoy = Buffer.alloc(0);

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly resources: ResourcesRepository,
    private readonly refreshedTokens: RefreshedTokensRepository,
    private readonly tokens: AccessTokensService,
    private readonly throttle: AuthThrottle,
    private readonly addresses: ClientAddressResolver,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest & { user?: AccessTokenHolder }>();
    const ip = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    const wait = this.throttle.retryAfterSeconds(ip);
    if (wait > 0) throw new TooManyAttempts(wait);
    const token = bearerTokenOf(req.headers.authorization);
    if (!token) throw new AuthenticationRequired();
    const holder = await this.holderOf(token);
    if (holder === 'stale') throw new AuthenticationRequired();
    if (holder === 'guess') {
      const retryAfter = await this.throttle.recordFailure(ip, undefined);
      if (retryAfter > 0) throw new TooManyAttempts(retryAfter);
      throw new AuthenticationRequired();
    }
    req.user = holder;
    return true;
  }

  /**
   * The holder, or why not: `guess` for a token no secret of ours signed (malformed, unknown
   * audience, a wrong signature, a grant we never made), which counts against the client's throttle; `stale` for one we did
   * sign that no longer holds (expired), which a portal keeps sending
   * for its users until they sign in again: counted, it would throttle the portal's own sign-ins.
   */
  private async holderOf(token: string): Promise<AccessTokenHolder | 'guess' | 'stale'> {
    if (token.length > ACCESS_TOKEN_MAX_CHARS) return 'guess';
    let audience: unknown;
    try {
      audience = decodeJwt(token).aud;
    } catch {
      return 'guess';
    }
    if (typeof audience !== 'string' || !PLAUSIBLE_KEY.test(audience)) return 'guess';
    const key = await this.apiKeys.resourceKey(audience, this.decoy);
    if (!key.found || !key.accountId || !key.resourceId) return 'guess';
    const resource = await this.resources.findById(key.accountId, key.resourceId);
    if (!resource) return 'stale';
    const check = await this.tokens.verify(resource, token, this.clock.now());
    if (!check.valid) return check.reason === TOKEN_REFUSALS.expired ? 'stale' : 'guess';
    const jti = check.payload.jti;
    if (typeof jti !== 'string') return 'guess';
    const grant = await this.refreshedTokens.grantOf(key.accountId, resource.id, jti, ACCESS_TOKEN_TTL_SECONDS);
    if (!grant) return 'guess';
    return {
      kind: 'accessTokenHolder',
      accountId: key.accountId,
      resourceId: resource.id,
      identity: check.payload.sub,
      userId: grant.userId,
      requestId: grant.requestId,
      login: check.payload.sub,
      identityFormat: key.identityFormat,
    };
  }
}
