import { Controller, Delete, Get, Post, Put, UseGuards } from '@nestjs/common';
import { IpListInput, Page, RecordId } from '@twofold/domain';
import { journalPath } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok, PagedModel } from '../http/envelope';
import { Input, parsePageQuery } from '../http/parsed-input';
import { parseIpListBody, parseIpListPath } from './ip-lists.commands';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { JournaledChange } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { IpListDto } from './ip-lists.dto';
import { IP_LIST_DOCS } from './ip-lists.openapi';
import { IpListsService } from './ip-lists.service';

/** The account's IP lists, networks let in without a code (Bypass) or refused (Deny). */
@ModelEnvelopeErrors()
@Controller('ip-lists')
@UseGuards(AccountAuthGuard)
@ApiFeature('IP lists')
@ApiAccountAuth('model')
export class IpListsController {
  constructor(private readonly ipLists: IpListsService) {}

  @ApiRoute(IP_LIST_DOCS.list)
  @Get()
  async list(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('query', parsePageQuery) page: Page,
  ): Promise<ModelEnvelope<PagedModel<IpListDto>>> {
    return ok(await this.ipLists.list(p.accountId, page));
  }

  @ApiRoute(IP_LIST_DOCS.create)
  @Post()
  @JournaledChange('IpList', 'Create')
  async create(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseIpListBody) input: IpListInput,
  ): Promise<ModelEnvelope<IpListDto>> {
    return ok(await this.ipLists.create(p.accountId, input));
  }

  @ApiRoute(IP_LIST_DOCS.replace)
  @Put(':id')
  @JournaledChange('IpList', 'Update', { fromRequest: journalPath({ id: 'IpListId' }) })
  async replace(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseIpListPath) id: RecordId,
    @Input('body', parseIpListBody) input: IpListInput,
  ): Promise<ModelEnvelope<IpListDto>> {
    return ok(await this.ipLists.replace(p.accountId, id, input));
  }

  @ApiRoute(IP_LIST_DOCS.delete)
  @Delete(':id')
  @JournaledChange('IpList', 'Delete', { fromRequest: journalPath({ id: 'IpListId' }) })
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseIpListPath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.ipLists.delete(p.accountId, id);
    return ok(null, 'IP list deleted.');
  }
}
