import { Controller, Delete, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ShowcaseRow, SupportInfoRow } from '@twofold/persistence';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { parseShowcase, parseSupportInfo } from './self-service-settings.commands';
import { SelfServiceSettingsService } from './self-service-settings.service';
import { parseLogoBody, parseLogoName } from './showcase-logo';
import { SELF_SERVICE_SETTINGS_DOCS } from './self-service.openapi';

/**
 * What the account's self-service portals show, set with the account API key: the support contact,
 * the showcase and the showcase's logos. Each change is journaled (`SelfService …`).
 */
@ModelEnvelopeErrors()
@Controller('settings')
@UseGuards(AccountAuthGuard)
@ApiFeature('Settings')
@ApiAccountAuth('model')
export class SelfServiceSettingsController {
  constructor(private readonly settings: SelfServiceSettingsService) {}

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.supportInfo)
  @Get('support-info')
  async supportInfo(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<SupportInfoRow>> {
    return ok(await this.settings.supportInfo(p.accountId));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.setSupportInfo)
  @Put('support-info')
  @JournaledChange('SelfService', 'ChangeSupportInfo')
  async setSupportInfo(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseSupportInfo) info: SupportInfoRow,
  ): Promise<ModelEnvelope<SupportInfoRow>> {
    return ok(await this.settings.setSupportInfo(p.accountId, info));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.showcase)
  @Get('showcase')
  async showcase(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<ShowcaseRow>> {
    return ok(await this.settings.showcase(p.accountId));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.setShowcase)
  @Put('showcase')
  @JournaledChange('SelfService', 'ChangeShowcase')
  async setShowcase(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseShowcase) showcase: ShowcaseRow,
  ): Promise<ModelEnvelope<ShowcaseRow>> {
    return ok(await this.settings.setShowcase(p.accountId, showcase));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.logos)
  @Get('showcase/logos')
  async logos(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<string[]>> {
    return ok(await this.settings.logoNames(p.accountId));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.putLogo)
  @Post('showcase/logos')
  @HttpCode(200)
  @JournaledChange('SelfService', 'UploadLogo')
  async putLogo(@CurrentPrincipal() p: AccountPrincipal, @Input('body', parseLogoBody) upload: ReturnType<typeof parseLogoBody>) {
    return ok(await this.settings.putLogo(p.accountId, upload));
  }

  @ApiRoute(SELF_SERVICE_SETTINGS_DOCS.deleteLogo)
  @Delete('showcase/logos/:name')
  @JournaledChange('SelfService', 'DeleteLogo')
  async deleteLogo(@CurrentPrincipal() p: AccountPrincipal, @Input('path', (path) => parseLogoName(path['name'])) name: string) {
    await this.settings.deleteLogo(p.accountId, name);
    return ok({ name });
  }
}
