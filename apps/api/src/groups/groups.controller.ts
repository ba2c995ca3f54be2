import { Controller, Delete, Get, Post, Put, UseGuards } from '@nestjs/common';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok, PagedModel } from '../http/envelope';
import { Input, parsePageQuery } from '../http/parsed-input';
import { journalPath } from '@twofold/journal';
import { Page, RecordId } from '@twofold/domain';
import { GroupDto } from './groups.dto';
import { parseGroupNameBody, parseGroupPath } from './groups.commands';
import { GroupsService } from './groups.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { GROUP_DOCS } from './groups.openapi';

/** The account's groups. */
@ModelEnvelopeErrors()
@Controller('groups')
@UseGuards(AccountAuthGuard)
@ApiFeature('Groups')
@ApiAccountAuth('model')
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @ApiRoute(GROUP_DOCS.list)
  @Get()
  async list(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('query', parsePageQuery) page: Page,
  ): Promise<ModelEnvelope<PagedModel<GroupDto>>> {
    return ok(await this.groups.list(p.accountId, page));
  }

  @ApiRoute(GROUP_DOCS.create)
  @Post()
  @JournaledChange('Group', 'Create')
  async create(@CurrentPrincipal() p: AccountPrincipal, @Input('body', parseGroupNameBody) name: string): Promise<ModelEnvelope<GroupDto>> {
    return ok(await this.groups.create(p.accountId, name));
  }

  @ApiRoute(GROUP_DOCS.rename)
  @Put(':id')
  @JournaledChange('Group', 'Update', { fromRequest: journalPath({ id: 'GroupId' }) })
  async rename(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseGroupPath) id: RecordId,
    @Input('body', parseGroupNameBody) name: string,
  ): Promise<ModelEnvelope<GroupDto>> {
    return ok(await this.groups.rename(p.accountId, id, name));
  }

  @ApiRoute(GROUP_DOCS.delete)
  @Delete(':id')
  @JournaledChange('Group', 'Delete', { fromRequest: journalPath({ id: 'GroupId' }) })
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseGroupPath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.groups.delete(p.accountId, id);
    return ok(null, 'Group deleted.');
  }
}
