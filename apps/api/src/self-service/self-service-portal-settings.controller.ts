import { Controller, Get, Res, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { ShowcaseRow, SupportInfoRow } from '@twofold/persistence';
import { FastifyReply } from 'fastify';
import { ResourceAuthGuard } from '../auth/auth.guards';
import { CurrentPrincipal, ResourcePrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiFeature, ApiResourceAuth, ApiRoute } from '../openapi/api-route';
import { SelfServiceSettingsService } from './self-service-settings.service';
import { parseLogoName } from './showcase-logo';
import { SELF_SERVICE_DOCS } from './self-service.openapi';

/**
 * What the portal reads of its account's settings, with its resource key: the support contact, the
 * showcase (top level, no envelope: the portal reads `enabled` and `showcaseLinks` at the root), and a
 * tile's logo as its bytes.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'self-service', version: VERSION_NEUTRAL })
@UseGuards(ResourceAuthGuard)
@ApiFeature('Self-service portals')
@ApiResourceAuth('model')
export class SelfServicePortalSettingsController {
  constructor(private readonly settings: SelfServiceSettingsService) {}

  @ApiRoute(SELF_SERVICE_DOCS.supportInfo)
  @Get('support-info')
  async supportInfo(@CurrentPrincipal() p: ResourcePrincipal): Promise<ModelEnvelope<SupportInfoRow>> {
    return ok(await this.settings.supportInfo(p.accountId));
  }

  @ApiRoute(SELF_SERVICE_DOCS.showcase)
  @Get('settings/showcase')
  async showcase(@CurrentPrincipal() p: ResourcePrincipal): Promise<ShowcaseRow & { success: true }> {
    // the tiles at the root as the portal reads them; `success` beside them for readers of the envelope
    return { ...(await this.settings.showcase(p.accountId)), success: true };
  }

  /**
   * The bytes as stored, in the type their first bytes proved at upload. `nosniff` and a CSP that runs
   * nothing: even a browser opening the URL directly treats it as the image it is.
   */
  @ApiRoute(SELF_SERVICE_DOCS.logo)
  @Get('settings/showcase/logo/:image')
  async logo(
    @CurrentPrincipal() p: ResourcePrincipal,
    @Input('path', (path) => parseLogoName(path['image'])) name: string,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const logo = await this.settings.logo(p.accountId, name);
    res
      .header('Content-Type', logo.contentType)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Content-Disposition', `inline; filename="${logo.name}"`)
      .send(logo.bytes);
  }
}
