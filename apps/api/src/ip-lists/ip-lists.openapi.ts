import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IP_LIST_ACTIONS, IP_LIST_MAX_RANGES, IP_LIST_NAME_MAX_LENGTH } from '@twofold/domain';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, modelEnvelope, PAGE_QUERY, pagedOf, ref } from '../openapi/common.openapi';
import { ok, PagedModel } from '../http/envelope';
import { IpListDto } from './ip-lists.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (ip-lists.dto.ts). */

export class IpListBody {
  @ApiProperty({ maxLength: IP_LIST_NAME_MAX_LENGTH, description: 'unique in the account, compared case-insensitively' }) name!: string;
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: IP_LIST_MAX_RANGES,
    description: 'addresses (a host) or CIDR networks with no host bits set (`10.0.0.0/8`, not `10.0.0.1/8`)',
  })
  ranges!: string[];
  @ApiProperty({ enum: IP_LIST_ACTIONS }) action!: string;
  @ApiPropertyOptional({ type: [String], description: 'resource ids of this account; empty or absent: every resource' })
  resources?: string[];
}

const IP_LIST_ID = '4d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a';
const OFFICE: IpListDto = {
  id: IP_LIST_ID,
  name: 'Office',
  ranges: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'],
  action: 'Bypass',
  resources: [],
};
const NOT_FOUND = 'IP list not found.';
const BODY = { name: 'Office', ranges: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'], action: 'Bypass', resources: [] };

export const IP_LIST_DOCS = {
  list: {
    summary: "List the account's IP lists, oldest first",
    envelope: 'model',
    query: PAGE_QUERY,
    ok: {
      schema: modelEnvelope(pagedOf(ref(IpListDto))),
      example: ok<PagedModel<IpListDto>>({ data: [OFFICE], offset: 0, limit: 100, totalElements: 1 }),
    },
    errors: { 400: 'offset must be a non-negative integer.' },
  },
  create: {
    summary: 'Create an IP list',
    description:
      'Every access request (the access page, `ra`, `ra/challenge`, `md`) from an address in a Deny list is Denied; from an address in a Bypass list it is Granted without a code (`bypassed: true`). Deny wins over Bypass; a locked user is Denied whatever the lists say.',
    envelope: 'model',
    body: { type: IpListBody, example: BODY },
    ok: { schema: modelEnvelope(ref(IpListDto)), example: ok(OFFICE) },
    errors: { 400: 'ranges[0] "10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?', 409: 'An IP list named Office already exists.' },
  },
  replace: {
    summary: 'Replace an IP list (name, ranges, action and resources all at once)',
    envelope: 'model',
    body: { type: IpListBody, example: { ...BODY, action: 'Deny', resources: [EXAMPLE.resourceId] } },
    ok: { schema: modelEnvelope(ref(IpListDto)), example: ok<IpListDto>({ ...OFFICE, action: 'Deny', resources: [EXAMPLE.resourceId] }) },
    errors: {
      400: `resources[0] "${EXAMPLE.resourceId}" is not a resource of this account.`,
      404: NOT_FOUND,
      409: 'An IP list named Office already exists.',
    },
  },
  delete: {
    summary: 'Delete an IP list',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'IP list deleted.') },
    errors: { 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
