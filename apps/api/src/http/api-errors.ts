import { HttpException, HttpStatus } from '@nestjs/common';

/** 401 for missing or wrong credentials; the filter adds the Basic challenge. */
export class AuthenticationRequired extends HttpException {
  constructor() {
    super('Authentication required.', HttpStatus.UNAUTHORIZED);
  }
}

/** 403: the account's extended API is disabled in its API settings. */
export class ApiDisabled extends HttpException {
  constructor() {
    super('The extended API is disabled for this account.', HttpStatus.FORBIDDEN);
  }
}

/** 429 after too many failed authentications from one client. */
export class TooManyAttempts extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('Too many failed authentication attempts. Try again later.', HttpStatus.TOO_MANY_REQUESTS);
  }
}
