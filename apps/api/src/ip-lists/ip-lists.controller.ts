import { Controller, Delete, Get, Param, Post, Put, UseGuards } from '@nestjs/common';
import { IpListInput, parseIpListInput } from '@twofold/domain';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok } from '../http/envelope';
import { ParsedBody } from '../http/parsed-input';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { Transactional } from '../http/transactional';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { IpListDto } from './ip-lists.dto';
import { IP_LIST_DOCS } from './ip-lists.openapi';
import { IpListsService } from './ip-lists.service';

/** Issue 14: the account's IP lists, networks let in without a code (Bypass) or refused (Deny). */
@ModelEnvelopeErrors()
@Controller('ip-lists')
@UseGuards(AccountAuthGuard)
@ApiFeature('IP lists')
@ApiAccountAuth('model')
export class IpListsController {
  constructor(private readonly ipLists: IpListsService) {}

  @ApiRoute(IP_LIST_DOCS.list)
  @Get()
  async list(@CurrentPrincipal() p: AccountPrincipal): Promise<ModelEnvelope<IpListDto[]>> {
    return ok(await this.ipLists.list(p.accountId));
  }

  @ApiRoute(IP_LIST_DOCS.create)
  @Post()
  @Transactional()
  @Journal('IpList', 'Create')
  async create(
    @CurrentPrincipal() p: AccountPrincipal,
    @ParsedBody(parseIpListInput) input: IpListInput,
  ): Promise<ModelEnvelope<IpListDto>> {
    return ok(await this.ipLists.create(p.accountId, input));
  }

  @ApiRoute(IP_LIST_DOCS.replace)
  @Put(':id')
  @Transactional()
  @Journal('IpList', 'Update')
  async replace(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @ParsedBody(parseIpListInput) input: IpListInput,
  ): Promise<ModelEnvelope<IpListDto>> {
    return ok(await this.ipLists.replace(p.accountId, id, input));
  }

  @ApiRoute(IP_LIST_DOCS.delete)
  @Delete(':id')
  @Transactional()
  @Journal('IpList', 'Delete')
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.ipLists.delete(p.accountId, id);
    return ok(null, 'IP list deleted.');
  }
}
