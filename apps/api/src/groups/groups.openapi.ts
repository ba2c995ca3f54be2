import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, modelEnvelope, PAGE_QUERY, pagedOf, ref } from '../openapi/common.openapi';
import { ok, PagedModel } from '../http/envelope';
import { GroupDto } from './groups.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (groups.dto.ts). */

export class GroupNameBody {
  @ApiProperty() name!: string;
}

const VPN: GroupDto = { id: EXAMPLE.groupId, name: 'VPN', system: false };
const NOT_FOUND = 'Group not found.';

export const GROUP_DOCS = {
  list: {
    summary: "List the account's groups",
    envelope: 'model',
    query: PAGE_QUERY,
    ok: {
      schema: modelEnvelope(pagedOf(ref(GroupDto))),
      example: ok<PagedModel<GroupDto>>({
        data: [{ id: '1c0b9a8f-7e6d-4c5b-8a49-38271605f4e3', name: 'AllUsers', system: true }, VPN],
        offset: 0,
        limit: 100,
        totalElements: 2,
      }),
    },
    errors: { 400: 'offset must be a non-negative integer.' },
  },
  create: {
    summary: 'Create a group',
    envelope: 'model',
    body: { type: GroupNameBody, example: { name: 'VPN' } },
    ok: { schema: modelEnvelope(ref(GroupDto)), example: ok(VPN) },
    errors: { 400: 'AllUsers is a system group name.', 409: 'A group named VPN already exists.' },
  },
  rename: {
    summary: 'Rename a group',
    envelope: 'model',
    body: { type: GroupNameBody, example: { name: 'VPN users' } },
    ok: { schema: modelEnvelope(ref(GroupDto)), example: ok({ ...VPN, name: 'VPN users' }) },
    errors: { 400: 'The system group AllUsers cannot be changed.', 404: NOT_FOUND, 409: 'A group named VPN users already exists.' },
  },
  delete: {
    summary: 'Delete a group',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'Group deleted.') },
    errors: { 400: 'The system group AllUsers cannot be changed.', 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
