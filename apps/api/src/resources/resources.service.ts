import { Inject, Injectable } from '@nestjs/common';
import { Clock, NotFound, Page, requireUuid } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { generateApiCredentials, ResourceEntity, ResourcesRepository, SecretCipher } from '@twofold/persistence';
import { CLOCK } from '../app/tokens';
import { PagedModel, pagedModel } from '../http/envelope';
import { ResourceDto, ResourceWithSecretDto, toResourceDto } from './resources.dto';

@Injectable()
export class ResourcesService {
  constructor(
    private readonly resources: ResourcesRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(accountId: string, page: Page): Promise<PagedModel<ResourceDto>> {
    const [resources, totalElements] = await this.resources.list(accountId, page);
    return pagedModel(resources, totalElements, page, toResourceDto);
  }

  async create(accountId: string, name: string): Promise<ResourceWithSecretDto> {
    const credentials = generateApiCredentials();
    const resource = await this.resources.insert(accountId, {
      name: name.trim(),
      apiKey: credentials.key,
      apiSecretEnc: this.cipher.encrypt('resource.api-secret', credentials.secret),
      createdAt: this.clock.now(),
    });
    journalDetails.add({ ResourceId: resource.id, ResourceName: resource.name });
    return { ...toResourceDto(resource), apiSecret: credentials.secret };
  }

  async rename(accountId: string, id: string, name: string): Promise<ResourceDto> {
    const resource = await this.find(accountId, id);
    await this.resources.rename(accountId, resource.id, name.trim());
    journalDetails.add({ ResourceName: name.trim() });
    return { ...toResourceDto(resource), name: name.trim() };
  }

  async delete(accountId: string, id: string): Promise<void> {
    const resource = await this.find(accountId, id);
    await this.resources.delete(accountId, resource.id);
  }

  async displaySecret(accountId: string, id: string): Promise<ResourceWithSecretDto> {
    const resource = await this.find(accountId, id);
    return { ...toResourceDto(resource), apiSecret: this.cipher.decryptText('resource.api-secret', resource.apiSecretEnc) };
  }

  private async find(accountId: string, id: string): Promise<ResourceEntity> {
    journalDetails.add({ ResourceId: id });
    const resource = await this.resources.findById(accountId, requireUuid(id, 'Resource'));
    if (!resource) throw new NotFound('Resource');
    journalDetails.add({ ResourceName: resource.name });
    return resource;
  }
}
