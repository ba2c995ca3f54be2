import { TokenFormatName } from '@twofold/domain';
import { ResourceEntity } from '@twofold/persistence';

export interface ResourceDto {
  id: string;
  name: string;
  apiKey: string;
  tokenFormat: TokenFormatName;
  frameOrigins: string[];
}

/** Only at creation and through the journaled display endpoint. */
export interface ResourceWithSecretDto extends ResourceDto {
  apiSecret: string;
}

export function toResourceDto(resource: ResourceEntity): ResourceDto {
  return {
    id: resource.id,
    name: resource.name,
    apiKey: resource.apiKey,
    tokenFormat: resource.tokenFormat,
    frameOrigins: resource.frameOrigins,
  };
}
