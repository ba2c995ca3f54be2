import { Controller, Delete, Get, HttpCode, HttpStatus, Post, Put, UseGuards } from '@nestjs/common';
import { journalPath } from '@twofold/journal';
import { AccountAuthGuard } from '../auth/auth.guards';
import { AccountPrincipal, CurrentPrincipal } from '../auth/principal';
import { ModelEnvelope, ok, PagedModel } from '../http/envelope';
import { Input, parsePageQuery } from '../http/parsed-input';
import { Page, RecordId } from '@twofold/domain';
import { ResourceDto, ResourceWithSecretDto } from './resources.dto';
import { parseResourceBody, parseResourcePath, ResourceCommand } from './resources.commands';
import { ResourcesService } from './resources.service';
import { JournaledChange } from '../http/transactional';
import { ModelEnvelopeErrors } from '../http/route-rules';
import { ApiAccountAuth, ApiFeature, ApiRoute } from '../openapi/api-route';
import { RESOURCE_DOCS } from './resources.openapi';

/** Resources, whose key and secret authenticate access requests. */
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
    @Input('query', parsePageQuery) page: Page,
  ): Promise<ModelEnvelope<PagedModel<ResourceDto>>> {
    return ok(await this.resources.list(p.accountId, page));
  }

  @ApiRoute(RESOURCE_DOCS.create)
  @Post()
  @JournaledChange('Resource', 'Create')
  async create(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('body', parseResourceBody) command: ResourceCommand,
  ): Promise<ModelEnvelope<ResourceWithSecretDto>> {
    return ok(await this.resources.create(p.accountId, command));
  }

  @ApiRoute(RESOURCE_DOCS.update)
  @Put(':id')
  @JournaledChange('Resource', 'Update', { fromRequest: journalPath({ id: 'ResourceId' }) })
  async update(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseResourcePath) id: RecordId,
    @Input('body', parseResourceBody) command: ResourceCommand,
  ): Promise<ModelEnvelope<ResourceDto>> {
    return ok(await this.resources.update(p.accountId, id, command));
  }

  @ApiRoute(RESOURCE_DOCS.delete)
  @Delete(':id')
  @JournaledChange('Resource', 'Delete', { fromRequest: journalPath({ id: 'ResourceId' }) })
  async delete(@CurrentPrincipal() p: AccountPrincipal, @Input('path', parseResourcePath) id: RecordId): Promise<ModelEnvelope<null>> {
    await this.resources.delete(p.accountId, id);
    return ok(null, 'Resource deleted.');
  }

  @ApiRoute(RESOURCE_DOCS.secret)
  @Get(':id/secret')
  @JournaledChange('Resource', 'DisplayResourceSecret', { fromRequest: journalPath({ id: 'ResourceId' }) })
  async secret(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseResourcePath) id: RecordId,
  ): Promise<ModelEnvelope<ResourceWithSecretDto>> {
    return ok(await this.resources.displaySecret(p.accountId, id));
  }

  @ApiRoute(RESOURCE_DOCS.rotateSecret)
  @Post(':id/secret')
  @HttpCode(HttpStatus.OK)
  @JournaledChange('Resource', 'Update', { fromRequest: journalPath({ id: 'ResourceId' }) })
  async rotateSecret(
    @CurrentPrincipal() p: AccountPrincipal,
    @Input('path', parseResourcePath) id: RecordId,
  ): Promise<ModelEnvelope<ResourceWithSecretDto>> {
    return ok(await this.resources.rotateSecret(p.accountId, id));
  }
}
