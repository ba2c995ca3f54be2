import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy } from 'passport-http';
import { ApiCredentialsVerifier } from './api-credentials.verifier';
import { AccountPrincipal, ResourcePrincipal } from './principal';

export const ACCOUNT_BASIC = 'account-basic';
export const RESOURCE_BASIC = 'resource-basic';

/** The account API key and secret from "API settings" (SPEC.md Authentication 1-2). */
@Injectable()
export class AccountBasicStrategy extends PassportStrategy(BasicStrategy, ACCOUNT_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api' });
  }

  validate(key: string, secret: string): Promise<AccountPrincipal | null> {
    return this.verifier.verifyAccount(key, secret);
  }
}

/** A resource's own key and secret, for creating and polling access requests (SPEC.md Authentication 3). */
@Injectable()
export class ResourceBasicStrategy extends PassportStrategy(BasicStrategy, RESOURCE_BASIC) {
  constructor(private readonly verifier: ApiCredentialsVerifier) {
    super({ realm: 'api' });
  }

  validate(key: string, secret: string): Promise<ResourcePrincipal | null> {
    return this.verifier.verifyResource(key, secret);
  }
}
