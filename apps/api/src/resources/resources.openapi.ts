import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TOKEN_FORMATS } from '@twofold/domain';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, modelEnvelope, PAGE_QUERY, pagedOf, ref } from '../openapi/common.openapi';
import { RESOURCE_NAME_MAX_LENGTH } from './resources.commands';
import { ok, PagedModel } from '../http/envelope';
import { ResourceDto, ResourceWithSecretDto } from './resources.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (resources.dto.ts). */

export class ResourceBody {
  @ApiProperty({ maxLength: RESOURCE_NAME_MAX_LENGTH, pattern: '\\S' }) name!: string;
  @ApiPropertyOptional({ type: 'string', enum: TOKEN_FORMATS, nullable: true, description: 'default JwtHS256' }) tokenFormat?:
    | string
    | null;
  @ApiPropertyOptional({ type: 'array', items: { type: 'string' }, nullable: true, description: 'scheme://host[:port] each' })
  frameOrigins?: string[] | null;
}

const RESOURCE: ResourceDto = { id: EXAMPLE.resourceId, name: 'VPN', apiKey: EXAMPLE.apiKey, tokenFormat: 'JwtHS256', frameOrigins: [] };
const NOT_FOUND = 'Resource not found.';

export const RESOURCE_DOCS = {
  list: {
    summary: "List the account's resources (without secrets)",
    envelope: 'model',
    query: PAGE_QUERY,
    ok: {
      schema: modelEnvelope(pagedOf(ref(ResourceDto))),
      example: ok<PagedModel<ResourceDto>>({ data: [RESOURCE], offset: 0, limit: 100, totalElements: 1 }),
    },
    errors: { 400: 'limit must not exceed 1000.' },
  },
  create: {
    summary: 'Create a resource; the answer carries its secret',
    envelope: 'model',
    body: { type: ResourceBody, example: { name: 'VPN', tokenFormat: 'JwtHS256' } },
    ok: {
      schema: modelEnvelope(ref(ResourceWithSecretDto)),
      example: ok<ResourceWithSecretDto>({ ...RESOURCE, apiSecret: EXAMPLE.apiSecret }),
    },
    errors: { 400: 'name must not be empty.' },
  },
  update: {
    summary: 'Change a resource',
    envelope: 'model',
    body: { type: ResourceBody, example: { name: 'AD FS', frameOrigins: ['https://adfs.corp.example'] } },
    ok: {
      schema: modelEnvelope(ref(ResourceDto)),
      example: ok<ResourceDto>({ ...RESOURCE, name: 'AD FS', frameOrigins: ['https://adfs.corp.example'] }),
    },
    errors: { 400: 'frameOrigins must be an array of origins (scheme://host[:port]).', 404: NOT_FOUND },
  },
  delete: {
    summary: 'Delete a resource',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'Resource deleted.') },
    errors: { 404: NOT_FOUND },
  },
  secret: {
    summary: "Show a resource's secret (journaled)",
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(ResourceWithSecretDto)),
      example: ok<ResourceWithSecretDto>({ ...RESOURCE, apiSecret: EXAMPLE.apiSecret }),
    },
    errors: { 404: NOT_FOUND },
  },
  rotateSecret: {
    summary: 'Give a resource a new secret (journaled)',
    description:
      'The key stays; the new secret is in this answer only, and the old one stops working at once. Journaled `Resource Update` ' +
      'with `Reason: SecretRotated`, never the secret.',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(ResourceWithSecretDto)),
      example: ok<ResourceWithSecretDto>({ ...RESOURCE, apiSecret: EXAMPLE.apiSecret }),
    },
    errors: { 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
