import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { IncomingHttpHeaders } from 'node:http';
import { BasicStrategy } from 'passport-http';
import { ApiCredentialsVerifier } from './api-credentials.verifier';
import { basicCredentialsOf } from './basic-credentials';
import { AccountPrincipal, ResourcePrincipal } from './principal';

export const ACCOUNT_BASIC = 'account-basic';
export const RESOURCE_BASIC = 'resource-basic';

/** The account API key and secret from "API settings": the administrator, user, journal and history APIs. */
@Injectable()
export class AccountBasicStrategy extends PassportStrategy(BasicStrategy, ACCOUNT_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api', passReqToCallback: true });
  }

  // the pair is read again from the header: passport-http drops what follows a second colon of the secret
  async validate(req: { headers: IncomingHttpHeaders }): Promise<AccountPrincipal | null> {
    const credentials = basicCredentialsOf(req.headers.authorization);
    return credentials ? this.verifier.verifyAccount(credentials.key, credentials.secret) : null;
  }
}

/** A resource's own key and secret, for creating and polling access requests. */
@Injectable()
export class ResourceBasicStrategy extends PassportStrategy(BasicStrategy, RESOURCE_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api', passReqToCallback: true });
  }

  async validate(req: { headers: IncomingHttpHeaders }): Promise<ResourcePrincipal | null> {
    const credentials = basicCredentialsOf(req.headers.authorization);
    return credentials ? this.verifier.verifyResource(credentials.key, credentials.secret) : null;
  }
}
