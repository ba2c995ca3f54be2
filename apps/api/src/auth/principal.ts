import { AccountId, IdentityFormat } from '@twofold/domain';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';

/** Who calls: an account through its API key, or a resource through its own key (access requests). */
export interface AccountPrincipal {
  kind: 'account';
  accountId: AccountId;
  /** the journal's subject for calls made with the account API key */
  login: string;
  /** how the account writes identities, read with the credentials: identities received are normalized by it */
  identityFormat: IdentityFormat;
  /** set when an administrator calls through the console with a session: the actor of the journal */
  administrator?: ConsoleActor;
}

/** The administrator behind a console session. */
export interface ConsoleActor {
  id: string;
  identity: string;
  role: string;
  sessionId: string;
}

export interface ResourcePrincipal {
  kind: 'resource';
  accountId: AccountId;
  resourceId: string;
  login: string;
  /** the resource's account's identity format, read with the credentials */
  identityFormat: IdentityFormat;
}

export type Principal = AccountPrincipal | ResourcePrincipal;

/** The authenticated caller, put on request.user by the auth guards. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ user: Principal }>().user;
});
