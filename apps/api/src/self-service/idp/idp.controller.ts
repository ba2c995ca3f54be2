import { Controller, Get, Headers, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { AccessTokenBearerGuard } from '../access-token-bearer.guard';
import { AccessTokenHolder, CurrentTokenHolder } from '../../auth/access-token-holder';
import { AccessRequestRateGuard } from '../../access/access-request-throttle';
import { ResourceAuthGuard } from '../../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../../auth/principal';
import { Input } from '../../http/parsed-input';
import { FormBody, IgnoredBody, ModelEnvelopeErrors } from '../../http/route-rules';
import { ApiAccessTokenAuth, ApiFeature, ApiResourceAuth, ApiRoute } from '../../openapi/api-route';
import { formField } from '../../pages/form-body';
import { SelfServiceProfileService } from '../self-service-profile.service';
import { IdpEnvelope, idpOk } from './idp-envelope';
import { IDP_REFUSALS, IdpLoginService } from './idp-login.service';
import { IDP_DOCS } from './idp.openapi';

/**
 * The login service of current self-service portal releases (`api/v1/…` under `/idp/`): a portal
 * whose login-service URL is `$PUBLIC_URL/idp/` signs its users in through Twofold's access requests.
 * Answers `{success, message, data}` as the portal reads them.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'idp/api/v1', version: VERSION_NEUTRAL })
@ApiFeature('Self-service portals: login service')
export class IdpController {
  constructor(
    private readonly login: IdpLoginService,
    private readonly profiles: SelfServiceProfileService,
  ) {}

  @ApiRoute(IDP_DOCS.login)
  @ApiResourceAuth('model')
  @Post('login')
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard, AccessRequestRateGuard)
  signIn(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @Input('body', (body) => body) body: unknown,
    @Headers('accept-language') language: string | undefined,
  ) {
    return this.login.login(principal, body, language);
  }

  @ApiRoute(IDP_DOCS.identity)
  @ApiResourceAuth('model')
  @Post('identity')
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard, AccessRequestRateGuard)
  identity(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @Input('body', (body) => body) body: unknown,
    @Headers('accept-language') language: string | undefined,
  ) {
    return this.login.identity(principal, body, language);
  }

  /**
   * The portal posts the token as a form (`accessToken=…`). Forms are taken here only: the call reads
   * nothing but confirms a token, and needs the portal's resource secret, which no browser holds.
   */
  @ApiRoute(IDP_DOCS.loginCompleted)
  @ApiResourceAuth('model')
  @FormBody()
  @Post('login-completed')
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard)
  loginCompleted(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @Input('body', (body) => formField(body, 'accessToken') || formField(body, 'AccessToken')) token: string,
  ) {
    return this.login.loginCompleted(principal, token);
  }

  @ApiRoute(IDP_DOCS.loadProfile)
  @ApiAccessTokenAuth()
  @Get('users/load-profile')
  @UseGuards(AccessTokenBearerGuard)
  async loadProfile(@CurrentTokenHolder() holder: AccessTokenHolder): Promise<IdpEnvelope<unknown>> {
    const answer = await this.profiles.profile(holder);
    return { success: answer.success, message: answer.message, data: answer.model };
  }

  /** Tokens are not sessions here: nothing to end but the portal's cookie, which the portal drops itself. */
  @ApiRoute(IDP_DOCS.logout)
  @ApiAccessTokenAuth()
  @Post('logout')
  @HttpCode(200)
  @IgnoredBody()
  @UseGuards(AccessTokenBearerGuard)
  logout() {
    return idpOk({ success: true, errorMessage: null });
  }

  @ApiRoute(IDP_DOCS.samlBypass)
  @ApiAccessTokenAuth()
  @Post('saml/bypass')
  @HttpCode(200)
  @IgnoredBody()
  @UseGuards(AccessTokenBearerGuard)
  samlBypass() {
    return { success: false, message: IDP_REFUSALS.bypass, data: null };
  }

  @ApiRoute(IDP_DOCS.oidcBypass)
  @ApiAccessTokenAuth()
  @Post('oidc/bypass')
  @HttpCode(200)
  @IgnoredBody()
  @UseGuards(AccessTokenBearerGuard)
  oidcBypass() {
    return { success: false, message: IDP_REFUSALS.bypass, data: null };
  }
}
