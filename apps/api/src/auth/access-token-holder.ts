import { AccountId, IdentityFormat } from '@twofold/domain';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/**
 * Whoever presents an access token the service issued, as `Authorization: Bearer` (the self-service
 * portals keep the token in their session cookie and send it until it expires). The token's `aud`
 * names the resource and so the account, `sub` the user; `userId` is the user of the grant the token
 * was issued for, null once that user was deleted.
 */
export interface AccessTokenHolder {
  kind: 'accessTokenHolder';
  accountId: AccountId;
  resourceId: string;
  /** the token's `sub`: the user's identity when the token was signed */
  identity: string;
  userId: string | null;
  /** the access request the token was granted by */
  requestId: string;
  /** the journal's subject: the user's identity */
  login: string;
  identityFormat: IdentityFormat;
}

/** The token's holder, put on request.user by AccessTokenBearerGuard. */
export const CurrentTokenHolder = createParamDecorator((_: unknown, context: ExecutionContext): AccessTokenHolder => {
  return context.switchToHttp().getRequest<{ user: AccessTokenHolder }>().user;
});
