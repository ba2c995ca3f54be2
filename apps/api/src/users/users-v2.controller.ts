import { Body, Controller, Delete, HttpCode, HttpStatus, Param, Post, Put, UseFilters, UseGuards } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { CustomFieldsExceptionFilter } from './custom-fields.exception-filter';
import {
  CustomFieldsDeleteRequest,
  CustomFieldsUpdateRequest,
  GroupNamesRequest,
  PhoneNumberRequest,
  UpdateUserFieldsRequest,
  UserCustomFieldsDto,
  UserGroupsDto,
  UserIdentityDto,
} from './users.dto';
import { UsersService } from './users.service';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** The answer of PUT /v2/users/{id}/customfields, exactly as SPEC.md shows it: `data`, not `model`. */
export interface CustomFieldsUpdatedResponse {
  success: boolean;
  message: string | null;
  data: { customFields: Record<string, string> };
}

/** SPEC.md "Users", the V2 operations. */
@Controller({ path: 'users', version: '2' })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class UsersV2Controller {
  constructor(private readonly users: UsersService) {}

  @ApiRoute(USER_DOCS.updateV2)
  @Put(':id')
  @Journal('User', 'Update')
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: UpdateUserFieldsRequest,
  ): Promise<ModelEnvelope<UserIdentityDto>> {
    return ok(await this.users.updateV2(p.accountId, id, body));
  }

  @ApiRoute(USER_DOCS.setPhone)
  @Post(':id/phone')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async setPhone(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: PhoneNumberRequest,
  ): Promise<ModelEnvelope<null>> {
    await this.users.setPhoneV2(p.accountId, id, body);
    return ok(null, 'Phone number saved.');
  }

  @ApiRoute(USER_DOCS.updateCustomFields)
  @Put(':id/customfields')
  @UseFilters(CustomFieldsExceptionFilter)
  @Journal('User', 'Update')
  async updateCustomFields(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: CustomFieldsUpdateRequest,
  ): Promise<CustomFieldsUpdatedResponse> {
    return { success: true, message: null, data: { customFields: await this.users.updateCustomFields(p.accountId, id, body) } };
  }

  @ApiRoute(USER_DOCS.deleteCustomFields)
  @Delete(':id/customfields')
  @UseFilters(CustomFieldsExceptionFilter)
  @Journal('User', 'Update')
  async deleteCustomFields(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: CustomFieldsDeleteRequest,
  ): Promise<ModelEnvelope<UserCustomFieldsDto>> {
    return ok(await this.users.deleteCustomFields(p.accountId, id, body));
  }

  @ApiRoute(USER_DOCS.lock)
  @Post(':id/lock')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async lock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.users.setLocked(p.accountId, id, true);
    return ok(null, 'User locked.');
  }

  @ApiRoute(USER_DOCS.unlock)
  @Post(':id/unlock')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async unlock(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.users.setLocked(p.accountId, id, false);
    return ok(null, 'User unlocked.');
  }

  @ApiRoute(USER_DOCS.addGroups)
  @Post(':id/groups')
  @HttpCode(HttpStatus.OK)
  @Journal('User', 'Update')
  async addGroups(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: GroupNamesRequest,
  ): Promise<ModelEnvelope<UserGroupsDto>> {
    return ok(await this.users.changeGroups(p.accountId, id, body, 'add'));
  }

  @ApiRoute(USER_DOCS.removeGroups)
  @Delete(':id/groups')
  @Journal('User', 'Update')
  async removeGroups(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: GroupNamesRequest,
  ): Promise<ModelEnvelope<UserGroupsDto>> {
    return ok(await this.users.changeGroups(p.accountId, id, body, 'remove'));
  }
}
