import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TOKEN_FORMATS, TokenFormatName } from '@twofold/domain';
import { ResourceEntity } from '@twofold/persistence';

/*
 * The answers of the resource API, each declared once: the class is the TypeScript type the service
 * returns and, through its @ApiProperty decorators, the OpenAPI schema (named by @ApiSchema).
 */

@ApiSchema({ name: 'Resource' })
export class ResourceDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'the user name of the resource credentials' }) apiKey!: string;
  @ApiProperty({ enum: TOKEN_FORMATS }) tokenFormat!: TokenFormatName;
  @ApiProperty({ type: [String], description: 'origins that may frame its access pages (CONTRACT §8.8)' }) frameOrigins!: string[];
}

/** Only at creation and through the journaled display endpoint. */
@ApiSchema({ name: 'ResourceWithSecret' })
export class ResourceWithSecretDto extends ResourceDto {
  @ApiProperty({ description: 'the password of the resource credentials' }) apiSecret!: string;
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
