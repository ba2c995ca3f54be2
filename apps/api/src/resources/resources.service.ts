import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock, DEFAULT_TOKEN_FORMAT, NotFound, Page, RecordId, ValidationFailed } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import {
  generateApiCredentials,
  IpListsRepository,
  isIpListResourceInUse,
  ResourceEntity,
  ResourcesRepository,
  SecretCipher,
} from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { PagedModel, pagedModel } from '../http/envelope';
import { ResourceDto, ResourceWithSecretDto, toResourceDto } from './resources.dto';
import { ResourceCommand } from './resources.commands';

@Injectable()
export class ResourcesService {
  constructor(
    private readonly resources: ResourcesRepository,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ipLists: IpListsRepository,
  ) {}

  async list(accountId: AccountId, page: Page): Promise<PagedModel<ResourceDto>> {
    const [resources, totalElements] = await this.resources.list(accountId, page);
    return pagedModel(resources, totalElements, page, toResourceDto);
  }

  async create(accountId: AccountId, command: ResourceCommand): Promise<ResourceWithSecretDto> {
    const credentials = generateApiCredentials();
    const resource = await this.resources.insert(accountId, {
      name: command.name,
      apiKey: credentials.key,
      apiSecretEnc: this.cipher.encrypt('resource.api-secret', credentials.secret),
      createdAt: this.clock.now(),
      tokenFormat: command.tokenFormat ?? DEFAULT_TOKEN_FORMAT,
      frameOrigins: command.frameOrigins ?? [],
    });
    journalDetails.add({ ResourceId: resource.id, ...journaledFields(resource) });
    return { ...toResourceDto(resource), apiSecret: credentials.secret };
  }

  /** PUT /resources/{id}: the name, and the token format and frame origins when given. */
  async update(accountId: AccountId, id: RecordId, command: ResourceCommand): Promise<ResourceDto> {
    const resource = await this.find(accountId, id);
    const changes = { name: command.name, tokenFormat: command.tokenFormat, frameOrigins: command.frameOrigins };
    await this.resources.update(accountId, resource.id, changes);
    journalDetails.add(journaledFields(changes));
    return toResourceDto({ ...resource, ...definedOnly(changes) });
  }

  async delete(accountId: AccountId, id: RecordId): Promise<void> {
    const resource = await this.find(accountId, id);
    // a list whose only resources were gone would read as a list for every resource
    const lists = await this.ipLists.namesNamingResource(accountId, resource.id);
    if (lists.length > 0) throw resourceInIpLists(lists);
    try {
      await this.resources.delete(accountId, resource.id);
    } catch (error) {
      // named by a list written meanwhile: the foreign key refused (and the transaction can read no more)
      if (isIpListResourceInUse(error)) throw resourceInIpLists([]);
      throw error;
    }
  }

  async displaySecret(accountId: AccountId, id: RecordId): Promise<ResourceWithSecretDto> {
    const resource = await this.find(accountId, id);
    return { ...toResourceDto(resource), apiSecret: this.cipher.decryptText('resource.api-secret', resource.apiSecretEnc) };
  }

  /**
   * A new secret for the resource's key, shown in this answer only: the client changes one value, and
   * the old secret stops working at once on every instance. Journaled as an update of the resource.
   */
  async rotateSecret(accountId: AccountId, id: RecordId): Promise<ResourceWithSecretDto> {
    const resource = await this.find(accountId, id);
    const { secret } = generateApiCredentials();
    await this.resources.replaceSecret(accountId, resource.id, this.cipher.encrypt('resource.api-secret', secret));
    journalDetails.add({ Reason: 'SecretRotated' });
    return { ...toResourceDto(resource), apiSecret: secret };
  }

  private async find(accountId: AccountId, id: RecordId): Promise<ResourceEntity> {
    journalDetails.add({ ResourceId: id });
    const resource = await this.resources.findById(accountId, id);
    if (!resource) throw new NotFound('Resource');
    journalDetails.add({ ResourceName: resource.name });
    return resource;
  }
}

/** additionalFields of Resource Create/Update: what was set, never a secret. */
function journaledFields(
  values: Partial<Pick<ResourceEntity, 'name' | 'tokenFormat' | 'frameOrigins'>>,
): Record<string, string | undefined> {
  return {
    ResourceName: values.name,
    TokenFormat: values.tokenFormat,
    FrameOrigins: values.frameOrigins && JSON.stringify(values.frameOrigins),
  };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function resourceInIpLists(names: readonly string[]): ValidationFailed {
  const lists = names.length > 0 ? `the IP list ${names.join(', ')}` : 'an IP list';
  return new ValidationFailed(`The resource is named by ${lists}: remove it from the list first.`);
}
