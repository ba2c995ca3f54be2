import { ExecutionContext, Injectable, Type } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import { FastifyRequest } from 'fastify';
import { AuthenticationRequired, TooManyAttempts } from '../http/api-errors';
import { ClientAddressResolver } from '../http/client-address';
import { AuthThrottle } from './auth-throttle';
import { ACCOUNT_BASIC, RESOURCE_BASIC } from './basic.strategies';

/**
 * Basic auth through one passport strategy, with the failure throttle around it: a throttled client
 * gets 429 before its credentials are even looked at.
 */
function basicAuthGuard(strategy: string): Type<IAuthGuard> {
  @Injectable()
  class BasicAuthGuard extends AuthGuard(strategy) {
    constructor(
      private readonly throttle: AuthThrottle,
      private readonly addresses: ClientAddressResolver,
    ) {
      super();
    }

    override async canActivate(context: ExecutionContext): Promise<boolean> {
      const req = context.switchToHttp().getRequest<FastifyRequest>();
      // behind a reverse proxy every client would share the proxy's address and its throttle
      const ip = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
      const wait = this.throttle.retryAfterSeconds(ip);
      if (wait > 0) throw new TooManyAttempts(wait);
      try {
        return (await super.canActivate(context)) as boolean;
      } catch (error) {
        // a request without credentials is not an attempt; wrong credentials are. The 20th failure
        // is still a 401; from the 21st attempt on, the check above refuses.
        if (error instanceof AuthenticationRequired && req.headers.authorization) this.throttle.recordFailure(ip);
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
export const AccountAuthGuard = basicAuthGuard(ACCOUNT_BASIC);
/** For access requests, which a resource makes with its own key. */
export const ResourceAuthGuard = basicAuthGuard(RESOURCE_BASIC);
