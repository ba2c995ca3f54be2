import { IsString, Matches, MaxLength } from 'class-validator';
import { ResourceEntity } from '@twofold/persistence';

export const RESOURCE_NAME_MAX_LENGTH = 200;

export class ResourceNameRequest {
  @IsString()
  @Matches(/\S/, { message: 'name must not be empty.' })
  @MaxLength(RESOURCE_NAME_MAX_LENGTH)
  name!: string;
}

export interface ResourceDto {
  id: string;
  name: string;
  apiKey: string;
}

/** Only at creation and through the journaled display endpoint. */
export interface ResourceWithSecretDto extends ResourceDto {
  apiSecret: string;
}

export function toResourceDto(resource: ResourceEntity): ResourceDto {
  return { id: resource.id, name: resource.name, apiKey: resource.apiKey };
}
