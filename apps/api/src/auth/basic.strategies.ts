import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { IncomingHttpHeaders } from 'node:http';
import { BasicStrategy } from 'passport-http';
import { ApiCredentialsVerifier } from './api-credentials.verifier';
import { basicCredentialsOf } from './basic-credentials';
import { AccountPrincipal, ResourcePrincipal } from './principal';

export const ACCOUNT_BASIC = 'account-basic';
export const RESOURCE_BASIC = 'resource-basic';

type VerifiedCallback = (error: unknown, principal?: unknown) => void;

/** What passport and passport-http give a strategy for one request, which passport-http's typings leave out. */
interface BasicStrategyOfOneRequest {
  _verify(req: unknown, key: string, secret: string, done: VerifiedCallback): void;
  _challenge(): string;
  success(principal: unknown): void;
  fail(challenge: string): void;
  error(error: unknown): void;
}

/**
 * passport-http's Basic strategy with the header read once, by RFC 7617 (basicCredentialsOf). Its own
 * reading splits the decoded text at every colon and drops what follows a second one of the secret, and
 * decodes with the deprecated `new Buffer`: Node then walks up to 100 stack frames on each of the first
 * 10 000 calls of a process to decide whether to warn, 5 % of the CPU instructions of an answer
 * (`npm run bench:api -- --instructions`). Every refusal is the same challenge, as passport-http's are
 * for a missing or unusable header.
 */
class Rfc7617BasicStrategy extends BasicStrategy {
  override authenticate(req: { headers: IncomingHttpHeaders }): void {
    const strategy = this as unknown as BasicStrategyOfOneRequest;
    const credentials = basicCredentialsOf(req.headers.authorization);
    if (!credentials) return strategy.fail(strategy._challenge());
    strategy._verify(req, credentials.key, credentials.secret, (error, principal) => {
      if (error) return strategy.error(error);
      if (!principal) return strategy.fail(strategy._challenge());
      strategy.success(principal);
    });
  }
}

/** The account API key and secret from "API settings": the administrator, user, journal and history APIs. */
@Injectable()
export class AccountBasicStrategy extends PassportStrategy(Rfc7617BasicStrategy, ACCOUNT_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api', passReqToCallback: true });
  }

  validate(_req: unknown, key: string, secret: string): Promise<AccountPrincipal | null> {
    return this.verifier.verifyAccount(key, secret);
  }
}

/** A resource's own key and secret, for creating and polling access requests. */
@Injectable()
export class ResourceBasicStrategy extends PassportStrategy(Rfc7617BasicStrategy, RESOURCE_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api', passReqToCallback: true });
  }

  validate(_req: unknown, key: string, secret: string): Promise<ResourcePrincipal | null> {
    return this.verifier.verifyResource(key, secret);
  }
}
