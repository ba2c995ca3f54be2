import { HttpException, HttpStatus } from '@nestjs/common';

/** 401 for missing or wrong credentials; the filter adds the Basic challenge. */
export class AuthenticationRequired extends HttpException {
  constructor() {
    super('Authentication required.', HttpStatus.UNAUTHORIZED);
  }
}

/**
 * A 401 of the console's session, not of the Basic scheme: no `WWW-Authenticate: Basic` challenge,
 * which would make a browser's fetch stop at a password dialog.
 */
export class UnauthorizedWithoutChallenge extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.UNAUTHORIZED);
  }
}

/** 401 for a console request without a live session (or without its CSRF token). */
export class SessionRequired extends UnauthorizedWithoutChallenge {
  constructor() {
    super('Authentication required.');
  }
}

/** 403: the account's extended API is disabled in its API settings. */
export class ApiDisabled extends HttpException {
  constructor() {
    super('The extended API is disabled for this account.', HttpStatus.FORBIDDEN);
  }
}

/** 429 with `Retry-After`: a throttle's refusal. */
export class Throttled extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** 429 after too many failed authentications from one client. */
export class TooManyAttempts extends Throttled {
  constructor(retryAfterSeconds: number) {
    super('Too many failed authentication attempts. Try again later.', retryAfterSeconds);
  }
}

/** 429 when a resource creates more access requests a minute than ACCESS_REQUESTS_PER_MINUTE. */
export class TooManyAccessRequests extends Throttled {
  constructor(retryAfterSeconds: number) {
    super('Too many access requests from this resource. Try again later.', retryAfterSeconds);
  }
}

/** A console session whose administrator's role does not cover the route (the role table). */
export class RoleForbids extends HttpException {
  constructor() {
    super('Your role does not allow this.', HttpStatus.FORBIDDEN);
  }
}

/** A state-changing console request from another origin, or without one. */
export class ForeignOrigin extends HttpException {
  constructor() {
    super('The request does not come from the console.', HttpStatus.FORBIDDEN);
  }
}
