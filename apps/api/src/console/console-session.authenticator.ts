import { Inject, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { roleMay } from '@twofold/domain';
import { AccountPrincipal } from '../auth/principal';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { SessionRequired, ForeignOrigin, RoleForbids } from '../http/api-errors';
import { consolePermissionOf } from './console-route-permissions';
import { CONSOLE_CSRF_HEADER, consoleSessionToken } from './console-session-cookie';
import { ConsoleSession, ConsoleSessions } from './console-sessions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The account API called by the console: a request without an Authorization header but with the
 * console's session cookie is the session's administrator, acting for their account, within their
 * role. The same controllers, services and journal serve it as serve an API key; only who may call
 * what differs (console-route-permissions.ts).
 */
@Injectable()
export class ConsoleSessionAuthenticator {
  private readonly origin: string;

  constructor(
    private readonly sessions: ConsoleSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.origin = new URL(config.publicUrl).origin;
  }

  /** Whether this request asks to be authenticated by a console session (and the console is on). */
  applies(req: FastifyRequest): boolean {
    return this.config.console !== false && !req.headers.authorization && consoleSessionToken(req.headers.cookie) !== null;
  }

  /** The session of the request (cookie, CSRF header, and the console's origin for a change), whatever the route. */
  async authenticateSession(req: FastifyRequest): Promise<ConsoleSession> {
    const token = consoleSessionToken(req.headers.cookie);
    if (!token) throw new SessionRequired();
    // a cross-site form or script can neither add the header nor, for a change, forge the Origin
    if (!SAFE_METHODS.has(req.method) && req.headers.origin !== this.origin) throw new ForeignOrigin();
    const csrf = req.headers[CONSOLE_CSRF_HEADER];
    const session = await this.sessions.authenticate(token, typeof csrf === 'string' ? csrf : undefined);
    if (typeof session === 'string') throw new SessionRequired();
    return session;
  }

  /** An account API call through the console: the session, then the role table for the route. */
  async authenticate(req: FastifyRequest): Promise<AccountPrincipal> {
    const session = await this.authenticateSession(req);
    const permission = consolePermissionOf(req.method, req.routeOptions.url ?? '');
    if (!permission || !roleMay(session.role, permission)) throw new RoleForbids();
    return {
      kind: 'account',
      accountId: session.accountId,
      login: session.identity,
      identityFormat: session.identityFormat,
      administrator: { id: session.administratorId, identity: session.identity, role: session.role, sessionId: session.id },
    };
  }
}
