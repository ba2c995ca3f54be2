import { ExecutionContext, Injectable, Optional, Type } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import { FastifyRequest } from 'fastify';
import { AuthenticationRequired, TooManyAttempts } from '../http/api-errors';
import { ClientAddressResolver } from '../http/client-address';
import { AuthThrottle } from './auth-throttle';
import { ACCOUNT_BASIC, RESOURCE_BASIC } from './basic.strategies';
import { ConsoleSessionAuthenticator } from '../console/console-session.authenticator';

/** The user name of a Basic Authorization header (the API key), or undefined when there is none. */
function basicUsername(header: string): string | undefined {
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || !encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * Basic auth through one passport strategy, with the failure throttle around it: a throttled client
 * gets 429 before its credentials are even looked at. `consoleSessions`: the account API also
 * answers the administrators' console, whose requests carry its session cookie instead.
 */
function basicAuthGuard(strategy: string, consoleSessions: boolean): Type<IAuthGuard> {
  @Injectable()
  class BasicAuthGuard extends AuthGuard(strategy) {
    constructor(
      private readonly throttle: AuthThrottle,
      private readonly addresses: ClientAddressResolver,
      @Optional() private readonly console?: ConsoleSessionAuthenticator,
    ) {
      super();
    }

    override async canActivate(context: ExecutionContext): Promise<boolean> {
      const req = context.switchToHttp().getRequest<FastifyRequest>();
      if (consoleSessions && this.console?.applies(req)) {
        (req as FastifyRequest & { user?: unknown }).user = await this.console.authenticate(req);
        return true;
      }
      // behind a reverse proxy every client would share the proxy's address and its throttle
      const ip = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
      const wait = this.throttle.retryAfterSeconds(ip);
      if (wait > 0) throw new TooManyAttempts(wait);
      try {
        return (await super.canActivate(context)) as boolean;
      } catch (error) {
        // a request without credentials is not an attempt; wrong credentials are. The 20th failure
        // is still a 401, the 21st a 429, and from then on the check above refuses.
        if (error instanceof AuthenticationRequired && req.headers.authorization) {
          const retryAfter = await this.throttle.recordFailure(ip, basicUsername(req.headers.authorization));
          if (retryAfter > 0) throw new TooManyAttempts(retryAfter);
        }
        throw error;
      }
    }

    override handleRequest<T>(error: unknown, principal: T | false): T {
      if (error) throw error;
      if (!principal) throw new AuthenticationRequired();
      return principal;
    }
  }
  return BasicAuthGuard;
}

/** For the account APIs: administrators, users, journal, groups, resources, history. */
export const AccountAuthGuard = basicAuthGuard(ACCOUNT_BASIC, true);
/** For access requests, which a resource makes with its own key. */
export const ResourceAuthGuard = basicAuthGuard(RESOURCE_BASIC, false);
