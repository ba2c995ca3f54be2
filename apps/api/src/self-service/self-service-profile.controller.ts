import { Controller, Get, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { InputFields, parseUserIdentity } from '@twofold/domain';
import { AccessTokenBearerGuard } from './access-token-bearer.guard';
import { AccessTokenHolder, CurrentTokenHolder } from '../auth/access-token-holder';
import { ResourceAuthGuard } from '../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../auth/principal';
import { ModelEnvelope, ok, refused } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { IgnoredBody, ModelEnvelopeErrors } from '../http/route-rules';
import { Transactional } from '../http/transactional';
import { ApiAccessTokenAuth, ApiFeature, ApiResourceAuth, ApiRoute } from '../openapi/api-route';
import { MyFactorsLinks } from './my-factors/my-factors-links';
import { PortalFactorLists } from './self-service-factors';
import { PortalProfile, SelfServiceProfileService, USER_NOT_REGISTERED } from './self-service-profile.service';
import { SELF_SERVICE_DOCS } from './self-service.openapi';

/**
 * The portal's view of its signed-in user: the profile (Bearer: the access token the user signed in
 * with), the link to the page where the user manages their factors (Bearer), and the factors of a user
 * the portal names (the portal's resource key).
 */
@ModelEnvelopeErrors()
@Controller({ path: 'self-service', version: VERSION_NEUTRAL })
@ApiFeature('Self-service portals')
export class SelfServiceProfileController {
  constructor(
    private readonly profiles: SelfServiceProfileService,
    private readonly links: MyFactorsLinks,
  ) {}

  @ApiRoute(SELF_SERVICE_DOCS.profile)
  @ApiAccessTokenAuth()
  @Get()
  @UseGuards(AccessTokenBearerGuard)
  profile(@CurrentTokenHolder() holder: AccessTokenHolder): Promise<ModelEnvelope<PortalProfile | null>> {
    return this.profiles.profile(holder);
  }

  /** No body, or whatever the portal sends (one release sends the JSON string `"{ }"`): the body is not read. */
  @ApiRoute(SELF_SERVICE_DOCS.createEnrollmentRequest)
  @ApiAccessTokenAuth()
  @Post('create-enrollment-request')
  @HttpCode(200)
  @IgnoredBody()
  @Transactional()
  @UseGuards(AccessTokenBearerGuard)
  async createEnrollmentRequest(@CurrentTokenHolder() holder: AccessTokenHolder): Promise<ModelEnvelope<{ url: string } | null>> {
    const user = await this.profiles.userOf(holder);
    if (!user) return refused(USER_NOT_REGISTERED);
    return ok({ url: await this.links.create(holder.accountId, user.id) });
  }

  @ApiRoute(SELF_SERVICE_DOCS.userAuthenticators)
  @ApiResourceAuth('model')
  @Post('user-authenticators')
  @HttpCode(200)
  @UseGuards(ResourceAuthGuard)
  userAuthenticators(
    @CurrentPrincipal() principal: ResourcePrincipal,
    @Input('body', (body, { identityFormat }) => parseUserIdentity(InputFields.ofBody(body).get('identity'), identityFormat))
    identity: string,
  ): Promise<ModelEnvelope<PortalFactorLists | null>> {
    return this.profiles.factorsOfIdentity(principal.accountId, identity);
  }
}
