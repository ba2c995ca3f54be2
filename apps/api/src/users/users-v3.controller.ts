import { Body, Controller, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { PhoneNumbersRequest } from './users.dto';
import { UsersService } from './users.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** SPEC.md "Users", the V3 phone list (rules 6-8). */
@Controller({ path: 'users', version: '3' })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class UsersV3Controller {
  constructor(private readonly users: UsersService) {}

  @ApiRoute(USER_DOCS.replacePhones)
  @Post(':id/phones')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async replacePhones(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: PhoneNumbersRequest,
  ): Promise<ModelEnvelope<null>> {
    await this.users.replacePhonesV3(p.accountId, id, body);
    return ok(null, 'Phone numbers saved.');
  }
}
