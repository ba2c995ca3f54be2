import { Controller, HttpCode, HttpStatus, Post, UseGuards, VERSION_NEUTRAL } from '@nestjs/common';
import { CreateBypassCodesCommand, parseCreateBypassCodes, RecordId } from '@twofold/domain';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { Input } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { parseUserPath } from '../users/users.commands';
import { journalPathUser } from '../users/users.journal';
import { BypassCodesDto, RecoveryCodesDto } from './standby-codes.dto';
import { STANDBY_CODE_DOCS } from './standby-codes.openapi';
import { StandbyCodesService } from './standby-codes.service';

/** Codes for a user whose phone is gone: an administrator hands them over. */
@ModelEnvelopeErrors()
@Controller({ path: 'users', version: [VERSION_NEUTRAL, '1'] })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class StandbyCodesController {
  constructor(private readonly codes: StandbyCodesService) {}

  @ApiRoute(STANDBY_CODE_DOCS.bypassCodes)
  @Post(':id/bypass-codes')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('BypassCode', 'Create', { fromRequest: journalPathUser })
  async bypassCodes(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseCreateBypassCodes) command: CreateBypassCodesCommand,
  ): Promise<ModelEnvelope<BypassCodesDto>> {
    return ok(await this.codes.createBypassCodes(p.accountId, id, command, p.login), 'Bypass codes created.');
  }

  @ApiRoute(STANDBY_CODE_DOCS.recoveryCodes)
  @Post(':id/recovery-codes')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('RecoveryCode', 'Create', { fromRequest: journalPathUser })
  async recoveryCodes(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
  ): Promise<ModelEnvelope<RecoveryCodesDto>> {
    return ok(await this.codes.regenerateRecoveryCodes(p.accountId, id, p.login), 'Recovery codes created.');
  }
}
