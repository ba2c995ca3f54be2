import { Controller, Get, HttpCode, HttpStatus, Post, Put, UseGuards } from '@nestjs/common';
import { IdentityFormat, parseRecordId } from '@twofold/domain';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { IdentityFormatService } from './identity-format.service';
import { IdentityFormatApplyDto, IdentityFormatApplyProgressDto, IdentityFormatDryRunDto, IdentityFormatDto } from './settings.dto';
import { IDENTITY_FORMAT_DOCS } from './identity-format.openapi';
import { parseApplyQuery, parseDryRunQuery, parseIdentityFormatBody } from './settings.commands';

/** The account's identity name format: `AsIs` or `Login`, and its application to the users stored before. */
@ModelEnvelopeErrors()
@Controller('settings/identity-format')
@UseGuards(AccountAuthGuard)
@ApiFeature('Settings')
@ApiAccountAuth('model')
export class IdentityFormatController {
  constructor(private readonly identityFormat: IdentityFormatService) {}

  @ApiRoute(IDENTITY_FORMAT_DOCS.read)
  @Get()
  async read(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<IdentityFormatDto>> {
    return ok(await this.identityFormat.identityFormat(p.accountId));
  }

  @ApiRoute(IDENTITY_FORMAT_DOCS.set)
  @Put()
  @JournaledChange('Accounts', 'ChangeNameFormat')
  async set(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseIdentityFormatBody) format: IdentityFormat,
  ): Promise<ModelEnvelope<IdentityFormatDto>> {
    return ok(await this.identityFormat.setIdentityFormat(p.accountId, format));
  }

  @ApiRoute(IDENTITY_FORMAT_DOCS.apply)
  @Post('apply')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Accounts', 'RenameAndRemoveDuplicates')
  async apply(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('query', parseApplyQuery) progressId: string | null,
  ): Promise<ModelEnvelope<IdentityFormatApplyDto>> {
    return ok(await this.identityFormat.apply(p.accountId, progressId));
  }

  @ApiRoute(IDENTITY_FORMAT_DOCS.progress)
  @Get('apply/:id')
  async progress(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', (path) => parseRecordId(path['id'], 'Apply')) id: string,
  ): Promise<ModelEnvelope<IdentityFormatApplyProgressDto>> {
    return ok(this.identityFormat.progress(p.accountId, id));
  }

  @ApiRoute(IDENTITY_FORMAT_DOCS.dryRun)
  @Get('dry-run')
  async dryRun(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('query', parseDryRunQuery) format: IdentityFormat | null,
  ): Promise<ModelEnvelope<IdentityFormatDryRunDto>> {
    return ok(await this.identityFormat.dryRun(p.accountId, format));
  }
}
