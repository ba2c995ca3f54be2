import { Body, Controller, Delete, Get, Param, Post, Put, UseGuards } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok, PagedModel } from '../http/envelope';
import { ParsedQuery, parsePageQuery } from '../http/parsed-input';
import { Page } from '@twofold/domain';
import { GroupDto, GroupNameRequest } from './groups.dto';
import { GroupsService } from './groups.service';
import { Transactional } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { GROUP_DOCS } from './groups.openapi';

/** CONTRACT §3: the account's groups. */
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
    @ParsedQuery(parsePageQuery) page: Page,
  ): Promise<ModelEnvelope<PagedModel<GroupDto>>> {
    return ok(await this.groups.list(p.accountId, page));
  }

  @ApiRoute(GROUP_DOCS.create)
  @Post()
  @Transactional()
  @Journal('Group', 'Create')
  async create(@CurrentPrincipal() p: AccountPrincipal, @Body() body: GroupNameRequest): Promise<ModelEnvelope<GroupDto>> {
    return ok(await this.groups.create(p.accountId, body.name));
  }

  @ApiRoute(GROUP_DOCS.rename)
  @Put(':id')
  @Transactional()
  @Journal('Group', 'Update')
  async rename(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: GroupNameRequest,
  ): Promise<ModelEnvelope<GroupDto>> {
    return ok(await this.groups.rename(p.accountId, id, body.name));
  }

  @ApiRoute(GROUP_DOCS.delete)
  @Delete(':id')
  @Transactional()
  @Journal('Group', 'Delete')
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.groups.delete(p.accountId, id);
    return ok(null, 'Group deleted.');
  }
}
