import { Controller, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { journalPathUser } from './users.journal';
import { Input } from '../http/parsed-input';
import { parsePhoneNumbers, parseUserPath } from './users.commands';
import { RecordId } from '@twofold/domain';
import { UsersService } from './users.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** The user API, the V3 phone list: the list sent replaces the stored numbers. */
@ModelEnvelopeErrors()
@Controller({ path: 'users', version: '3' })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class UsersV3Controller {
  constructor(private readonly users: UsersService) {}

  @ApiRoute(USER_DOCS.replacePhones)
  @Post(':id/phones')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async replacePhones(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parsePhoneNumbers) phones: string[],
  ): Promise<ModelEnvelope<null>> {
    await this.users.replacePhonesV3(p.accountId, id, phones);
    return ok(null, 'Phone numbers saved.');
  }
}
