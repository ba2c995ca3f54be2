import { Inject, Injectable } from '@nestjs/common';
import { pageRequestRow } from '../../access/requests/page-request-row';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  Clock,
  DomainError,
  ErrorMessages,
  InputFields,
  isPlainObject,
  validateAccessRequest,
} from '@twofold/domain';
import { AccessRequestsRepository, RefreshedTokensRepository, ResourcesRepository } from '@twofold/persistence';
import { ResourcePrincipal } from '../../auth/principal';
import { APP_CONFIG, CLOCK } from '../../config/injection-tokens';
import { AppConfig } from '../../config/app-config';
import { AccessTokensService } from '../../tokens/access-tokens.service';
import { IDENTITY_ACTION, IdpEnvelope, idpOk, idpRefused, LOGIN_ACTION, LOGIN_COMPLETED_ACTION } from './idp-envelope';

/** The claim a sign-in keeps for login-completed: the directory said the password must be changed first. */
const MUST_CHANGE_PASSWORD_CLAIM = 'mustChangePassword';

export const IDP_REFUSALS = {
  credentials: 'The directory did not accept the credentials.',
  body: 'The request body must be a JSON object.',
  token: 'The access token is not valid for this resource.',
  bypass: 'Single sign-on bypass is not available: Twofold is not a SAML or OpenID Connect identity provider.',
} as const;

export interface LoginData {
  success: boolean;
  action: number;
  redirectUrl: string | null;
  username: string | null;
}

/**
 * The login service of current portal releases, on access requests: the portal checks the
 * directory password itself and asks here for the second factor; the answer sends the user to the
 * access page, whose token comes back to the portal's `loginCompletedCallbackUrl` and is confirmed by
 * `login-completed`. The portal's word that a user is outside its second-factor groups (`isBypass`)
 * does not skip the second factor here: only the account's IP lists decide that.
 */
@Injectable()
export class IdpLoginService {
  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly resources: ResourcesRepository,
    private readonly refreshedTokens: RefreshedTokensRepository,
    private readonly tokens: AccessTokensService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `api/v1/login`: the portal verified the password; an access request for the second factor. */
  async login(principal: ResourcePrincipal, body: unknown, language: string | undefined): Promise<IdpEnvelope<LoginData>> {
    const empty = { action: LOGIN_ACTION.Error, redirectUrl: null, username: null };
    if (!isPlainObject(body)) return idpRefused(IDP_REFUSALS.body, empty);
    const fields = InputFields.ofBody(body);
    const credentials = InputFields.lenient(fields.get('verifiedCredentials'));
    const username = text(credentials.get('username'));
    const mustChange = credentials.get('userMustChangePassword') === true;
    if (!username || (credentials.get('isAuthenticated') !== true && !mustChange)) return idpRefused(IDP_REFUSALS.credentials, empty);
    const settings = InputFields.lenient(fields.get('settings'));
    const claims: Record<string, unknown> = {
      ...(isPlainObject(fields.get('additionalClaims')) ? (fields.get('additionalClaims') as object) : {}),
    };
    claims['rawUserName'] = username;
    if (mustChange) claims[MUST_CHANGE_PASSWORD_CLAIM] = 'true';
    return this.accessRequest(principal, {
      identity: identityOf(credentials, settings),
      name: text(credentials.get('displayName')),
      email: text(credentials.get('email')),
      phone: text(credentials.get('phone')),
      claims,
      callback: fields.get('loginCompletedCallbackUrl'),
      signUpGroups: text(settings.get('signUpGroups')),
      language,
      action: LOGIN_ACTION.MfaRequired,
      username,
    });
  }

  /** `api/v1/identity`: the pre-authentication flow, the second factor before the password. */
  async identity(principal: ResourcePrincipal, body: unknown, language: string | undefined): Promise<IdpEnvelope<LoginData>> {
    const empty = { action: IDENTITY_ACTION.Error, redirectUrl: null, username: null };
    if (!isPlainObject(body)) return idpRefused(IDP_REFUSALS.body, empty);
    const fields = InputFields.ofBody(body);
    const username = text(fields.get('username'));
    if (!username) return idpRefused(IDP_REFUSALS.credentials, empty);
    const membership = InputFields.lenient(fields.get('verifiedMembership'));
    const settings = InputFields.lenient(fields.get('settings'));
    const claims: Record<string, unknown> = {
      ...(isPlainObject(fields.get('additionalClaims')) ? (fields.get('additionalClaims') as object) : {}),
    };
    claims['rawUserName'] = username;
    const identity = text(membership.get('customIdentity')) ?? withNetBios(username, text(settings.get('netBiosName')));
    return this.accessRequest(principal, {
      identity,
      name: text(membership.get('displayName')),
      email: text(membership.get('email')),
      phone: text(membership.get('phone')),
      claims,
      callback: fields.get('loginCompletedCallbackUrl'),
      signUpGroups: text(settings.get('signUpGroups')),
      language,
      action: IDENTITY_ACTION.MfaRequired,
      username,
    });
  }

  /** `api/v1/login-completed` (form `accessToken`): the token the access page posted, confirmed as one this resource was granted. */
  async loginCompleted(principal: ResourcePrincipal, token: string) {
    const empty = {
      action: LOGIN_COMPLETED_ACTION.Error,
      redirectUrl: null,
      sessionId: null,
      mustChangePassword: false,
      tokenExpirationDate: null,
      identity: null,
      samlSessionId: null,
      oidcSessionId: null,
      rawUserName: null,
    };
    const resource = await this.resources.findById(principal.accountId, principal.resourceId);
    if (!resource || token === '') return idpRefused(IDP_REFUSALS.token, empty);
    const check = await this.tokens.verify(resource, token, this.clock.now());
    const jti = check.valid ? check.payload.jti : undefined;
    const grant =
      typeof jti === 'string' ? await this.refreshedTokens.grantOf(principal.accountId, resource.id, jti, ACCESS_TOKEN_TTL_SECONDS) : null;
    if (!check.valid || !grant) return idpRefused(IDP_REFUSALS.token, empty);
    const { payload } = check;
    const mustChangePassword = payload[MUST_CHANGE_PASSWORD_CLAIM] === 'true';
    return idpOk({
      ...empty,
      success: true,
      action: mustChangePassword ? LOGIN_COMPLETED_ACTION.ChangePassword : LOGIN_COMPLETED_ACTION.Authenticated,
      sessionId: jti as string,
      mustChangePassword,
      tokenExpirationDate: new Date((payload.exp as number) * 1000).toISOString(),
      identity: payload.sub,
      rawUserName: typeof payload['rawUserName'] === 'string' ? payload['rawUserName'] : payload.sub,
      errorMessage: null,
    });
  }

  private async accessRequest(
    principal: ResourcePrincipal,
    request: {
      identity: string;
      name: string | null;
      email: string | null;
      phone: string | null;
      claims: Record<string, unknown>;
      callback: unknown;
      signUpGroups: string | null;
      language: string | undefined;
      action: number;
      username: string;
    },
  ): Promise<IdpEnvelope<LoginData>> {
    const empty = { action: 0, redirectUrl: null, username: request.username };
    let input;
    try {
      input = validateAccessRequest(
        {
          identity: request.identity,
          name: request.name,
          email: request.email,
          phone: request.phone,
          claims: request.claims,
          callback: { action: request.callback, target: '_self' },
          language: /^\s*en/i.test(request.language ?? '') ? 'en' : 'ru',
          groupPolicyPreset: { signUpGroups: request.signUpGroups },
        },
        principal.identityFormat,
      );
    } catch (error) {
      if (error instanceof DomainError) return idpRefused(error.message, empty);
      throw error;
    }
    const id = await this.requests.insertForKnownOrRegistrable(
      principal.accountId,
      pageRequestRow(principal.resourceId, input, this.clock.now()),
    );
    if (id === null) return idpRefused(ErrorMessages.usersQuotaExceeded, { ...empty, action: LOGIN_ACTION.AccessDenied });
    return idpOk({ success: true, action: request.action, redirectUrl: `${this.config.accessUrl}/${id}`, username: request.username });
  }
}

function text(raw: unknown): string | null {
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : null;
}

function withNetBios(username: string, netBios: string | null): string {
  return netBios && !username.includes('\\') && !username.includes('@') ? `${netBios}\\${username}` : username;
}

/** The identity the portal's own sign-in sent: its custom identity, else the user name with the NetBIOS domain when one is set. */
function identityOf(credentials: InputFields, settings: InputFields): string {
  return (
    text(credentials.get('customIdentity')) ?? withNetBios(text(credentials.get('username')) as string, text(settings.get('netBiosName')))
  );
}
