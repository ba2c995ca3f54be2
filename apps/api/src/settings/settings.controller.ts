import { Controller, Get, Put, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { SettingsService } from './settings.service';
import { BrandingDto, DirectorySyncDto } from './settings.dto';
import { parseBranding, parseDirectorySync } from './settings.commands';
import { Input } from '../http/parsed-input';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { SETTINGS_DOCS } from './settings.openapi';

/**
 * The account's directory synchronization switch (custom fields of Directory users change only while it is off); and the
 * account's display name on its pages, mails and authenticator apps.
 */
@ModelEnvelopeErrors()
@Controller('settings')
@UseGuards(AccountAuthGuard)
@ApiFeature('Settings')
@ApiAccountAuth('model')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @ApiRoute(SETTINGS_DOCS.directorySync)
  @Get('directory-sync')
  async directorySync(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<DirectorySyncDto>> {
    return ok(await this.settings.directorySync(p.accountId));
  }

  @ApiRoute(SETTINGS_DOCS.setDirectorySync)
  @Put('directory-sync')
  @JournaledChange('DirectorySync', 'Update')
  async setDirectorySync(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseDirectorySync) enabled: boolean,
  ): Promise<ModelEnvelope<DirectorySyncDto>> {
    return ok(await this.settings.setDirectorySync(p.accountId, enabled));
  }

  @ApiRoute(SETTINGS_DOCS.branding)
  @Get('branding')
  async branding(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<BrandingDto>> {
    return ok(await this.settings.branding(p.accountId));
  }

  @ApiRoute(SETTINGS_DOCS.setBranding)
  @Put('branding')
  @JournaledChange('Accounts', 'ChangeDisplayName')
  async setBranding(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseBranding) displayName: string | null,
  ): Promise<ModelEnvelope<BrandingDto>> {
    return ok(await this.settings.setBranding(p.accountId, displayName));
  }
}
