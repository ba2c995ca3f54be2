import { Controller, HttpCode, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { ResourceAuthGuard } from '../auth/auth.guards';
import { ModelEnvelope, refused } from '../http/envelope';
import { IgnoredBody, ModelEnvelopeErrors, SignInCall } from '../http/route-rules';
import { ApiFeature, ApiResourceAuth, ApiRoute } from '../openapi/api-route';
import { SELF_SERVICE_DOCS } from './self-service.openapi';

export const BYPASS_REFUSALS = {
  saml: 'SAML single sign-on bypass is not available: Twofold is not a SAML identity provider. Sign in through access requests.',
  oidc: 'OpenID Connect single sign-on bypass is not available: Twofold is not an OpenID Connect identity provider. Sign in through access requests.',
} as const;

/**
 * The portals' single sign-on bypass, which hands the session of the vendor's own SAML or OpenID
 * Connect identity provider to a user outside the second-factor groups. Twofold is neither, so there
 * is no session to hand over: a 200 refusal that says so (any other status reads as an outage to the
 * portal, which some operators let users through on).
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access/bypass', version: VERSION_NEUTRAL })
@UseGuards(ResourceAuthGuard)
@ApiFeature('Self-service portals')
@ApiResourceAuth('model')
export class AccessBypassController {
  @SignInCall('plain')
  @ApiRoute(SELF_SERVICE_DOCS.bypassSaml)
  @Post('saml')
  @HttpCode(200)
  @IgnoredBody()
  saml(): ModelEnvelope<null> {
    return refused(BYPASS_REFUSALS.saml);
  }

  @SignInCall('plain')
  @ApiRoute(SELF_SERVICE_DOCS.bypassOidc)
  @Post('oidc')
  @HttpCode(200)
  @IgnoredBody()
  oidc(): ModelEnvelope<null> {
    return refused(BYPASS_REFUSALS.oidc);
  }
}
