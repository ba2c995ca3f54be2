import { Controller, Delete, HttpCode, HttpStatus, Post, Put, UseFilters, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { CustomFieldsExceptionFilter } from './custom-fields.exception-filter';
import { journalPathUser } from './users.journal';
import { Input } from '../http/parsed-input';
import { CustomField, RecordId, UserFieldChanges } from '@twofold/domain';
import {
  parseCustomFieldsDelete,
  parseCustomFieldsUpdate,
  parseGroupNamesBody,
  parsePhoneNumber,
  parseUserPath,
  parseUpdateUserFields,
} from './users.commands';
import { CustomFieldsUpdatedDto, UserCustomFieldsDto, UserGroupsDto, UserIdentityDto } from './users.dto';
import { UsersService } from './users.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { USER_DOCS } from './users.openapi';

/** The user API, the V2 operations. */
@ModelEnvelopeErrors()
@Controller({ path: 'users', version: '2' })
@UseGuards(AccountAuthGuard)
@ApiFeature('Users')
@ApiAccountAuth('model')
export class UsersV2Controller {
  constructor(private readonly users: UsersService) {}

  @ApiRoute(USER_DOCS.updateV2)
  @Put(':id')
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseUpdateUserFields) changes: UserFieldChanges,
  ): Promise<ModelEnvelope<UserIdentityDto>> {
    return ok(await this.users.updateV2(p.accountId, id, changes));
  }

  @ApiRoute(USER_DOCS.setPhone)
  @Post(':id/phone')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async setPhone(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parsePhoneNumber) phone: string,
  ): Promise<ModelEnvelope<null>> {
    await this.users.setPhoneV2(p.accountId, id, phone);
    return ok(null, 'Phone number saved.');
  }

  @ApiRoute(USER_DOCS.updateCustomFields)
  @Put(':id/customfields')
  @UseFilters(CustomFieldsExceptionFilter)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async updateCustomFields(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseCustomFieldsUpdate) updates: CustomField[],
  ): Promise<CustomFieldsUpdatedDto> {
    return { success: true, message: null, data: { customFields: await this.users.updateCustomFields(p.accountId, id, updates) } };
  }

  @ApiRoute(USER_DOCS.deleteCustomFields)
  @Delete(':id/customfields')
  @UseFilters(CustomFieldsExceptionFilter)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async deleteCustomFields(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseCustomFieldsDelete) names: string[],
  ): Promise<ModelEnvelope<UserCustomFieldsDto>> {
    return ok(await this.users.deleteCustomFields(p.accountId, id, names));
  }

  @ApiRoute(USER_DOCS.lock)
  @Post(':id/lock')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async lock(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseUserPath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.users.setLocked(p.accountId, id, true);
    return ok(null, 'User locked.');
  }

  @ApiRoute(USER_DOCS.unlock)
  @Post(':id/unlock')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async unlock(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseUserPath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.users.setLocked(p.accountId, id, false);
    return ok(null, 'User unlocked.');
  }

  @ApiRoute(USER_DOCS.addGroups)
  @Post(':id/groups')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async addGroups(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseGroupNamesBody) groupNames: string[],
  ): Promise<ModelEnvelope<UserGroupsDto>> {
    return ok(await this.users.changeGroups(p.accountId, id, groupNames, 'add'));
  }

  @ApiRoute(USER_DOCS.removeGroups)
  @Delete(':id/groups')
  @JournaledChange('User', 'Update', { fromRequest: journalPathUser })
  async removeGroups(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseUserPath) id: RecordId,
    @Input('body', parseGroupNamesBody) groupNames: string[],
  ): Promise<ModelEnvelope<UserGroupsDto>> {
    return ok(await this.users.changeGroups(p.accountId, id, groupNames, 'remove'));
  }
}
