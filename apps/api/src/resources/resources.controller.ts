import { Body, Controller, Delete, Get, Param, Post, Put, UseGuards } from '@nestjs/common';
import { Journal } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok, PagedModel } from '../http/envelope';
import { ParsedQuery, parsePageQuery } from '../http/parsed-input';
import { Page } from '@twofold/domain';
import { ResourceDto, ResourceRequest, resourceCommandOf, ResourceWithSecretDto } from './resources.dto';
import { ResourcesService } from './resources.service';
import { Transactional } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { RESOURCE_DOCS } from './resources.openapi';

/** CONTRACT §3: resources, whose key and secret authenticate access requests. */
@ModelEnvelopeErrors()
@Controller('resources')
@UseGuards(AccountAuthGuard)
@ApiFeature('Resources')
@ApiAccountAuth('model')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  @ApiRoute(RESOURCE_DOCS.list)
  @Get()
  async list(
    @CurrentPrincipal() p: AccountPrincipal,
    @ParsedQuery(parsePageQuery) page: Page,
  ): Promise<ModelEnvelope<PagedModel<ResourceDto>>> {
    return ok(await this.resources.list(p.accountId, page));
  }

  @ApiRoute(RESOURCE_DOCS.create)
  @Post()
  @Transactional()
  @Journal('Resource', 'Create')
  async create(@CurrentPrincipal() p: AccountPrincipal, @Body() body: ResourceRequest): Promise<ModelEnvelope<ResourceWithSecretDto>> {
    return ok(await this.resources.create(p.accountId, resourceCommandOf(body)));
  }

  @ApiRoute(RESOURCE_DOCS.update)
  @Put(':id')
  @Transactional()
  @Journal('Resource', 'Update')
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Param('id') id: string,
    @Body() body: ResourceRequest,
  ): Promise<ModelEnvelope<ResourceDto>> {
    return ok(await this.resources.update(p.accountId, id, resourceCommandOf(body)));
  }

  @ApiRoute(RESOURCE_DOCS.delete)
  @Delete(':id')
  @Transactional()
  @Journal('Resource', 'Delete')
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<null>> {
    await this.resources.delete(p.accountId, id);
    return ok(null, 'Resource deleted.');
  }

  @ApiRoute(RESOURCE_DOCS.secret)
  @Get(':id/secret')
  @Transactional()
  @Journal('Resource', 'DisplayResourceSecret')
  async secret(@CurrentPrincipal() p: AccountPrincipal, @Param('id') id: string): Promise<ModelEnvelope<ResourceWithSecretDto>> {
    return ok(await this.resources.displaySecret(p.accountId, id));
  }
}
