import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ADMIN_ROLES, ErrorMessages, SETTABLE_ADMIN_STATUSES } from '@twofold/domain';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, PAGE_QUERY, pagedOf, ref } from '../openapi/common.openapi';
import { PagedModel } from '../http/envelope';
import { AdminDto, RegisteredAdminDto } from './admins.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (admins.dto.ts). */

export class RegisterAdministratorBody {
  @ApiProperty({ format: 'email', description: 'becomes the identity' }) email!: string;
  @ApiPropertyOptional({ description: 'default: the e-mail' }) name?: string;
  @ApiProperty({ enum: ADMIN_ROLES }) role!: string;
  @ApiPropertyOptional({
    enum: ['ru', 'en'],
    default: 'ru',
    description: "the mail's language; the expiry is written as a duration and a UTC time",
  })
  language?: string;
}

export class UpdateAdministratorBody {
  @ApiPropertyOptional({ type: 'string', nullable: true }) name?: string | null;
  @ApiPropertyOptional({ type: 'string', enum: ADMIN_ROLES, nullable: true }) role?: string | null;
  @ApiPropertyOptional({ type: 'string', enum: SETTABLE_ADMIN_STATUSES, nullable: true, description: 'locks or unlocks (CONTRACT §5)' })
  status?: string | null;
}

const ADMIN: AdminDto = {
  id: EXAMPLE.adminId,
  identity: 'jane.admin@example.com',
  name: 'Jane Admin',
  status: 'Active',
  roles: ['Admin'],
  registrationDate: EXAMPLE.timestamp,
  lastLoginDate: EXAMPLE.later,
};
// `GET /admins?identity=` answers the single object without lastLoginDate (SPEC.md's example)
const FOUND_ADMIN: AdminDto = { ...ADMIN };
delete FOUND_ADMIN.lastLoginDate;

const NOT_FOUND = 'Administrator not found.';

export const ADMIN_DOCS = {
  list: {
    summary: 'List administrators, or find one by identity',
    description: 'With `identity`, the single administrator object (without lastLoginDate), 404 when none.',
    envelope: 'plain',
    query: [{ name: 'identity', required: false, type: String, description: 'the e-mail of one administrator' }, ...PAGE_QUERY],
    ok: {
      schema: { oneOf: [pagedOf(ref(AdminDto)), ref(AdminDto)] },
      examples: {
        page: { summary: 'a page', value: { data: [ADMIN], offset: 0, limit: 100, totalElements: 1 } satisfies PagedModel<AdminDto> },
        found: { summary: 'with identity', value: FOUND_ADMIN },
      },
    },
    errors: { 400: 'limit must not exceed 1000.', 404: NOT_FOUND },
  },
  register: {
    summary: 'Register an administrator (status Pending; an invitation is mailed)',
    envelope: 'plain',
    body: { type: RegisterAdministratorBody, example: { email: 'new.admin@example.com', name: 'New Admin', role: 'Support 1' } },
    ok: {
      schema: ref(RegisteredAdminDto),
      example: {
        id: EXAMPLE.adminId,
        identity: 'new.admin@example.com',
        name: 'New Admin',
        status: 'Pending',
        registrationDate: EXAMPLE.timestamp,
        lastLoginDate: null,
        appRoles: ['Support 1'],
      } satisfies RegisteredAdminDto,
    },
    errors: { 400: ErrorMessages.unknownRole, 403: 'An administrator with the e-mail new.admin@example.com already exists.' },
  },
  resendInvitation: {
    summary: 'Re-send the invitation (V1: the id in the query)',
    envelope: 'plain',
    query: [{ name: 'id', required: true, type: String, format: 'uuid' }],
    ok: 'empty',
    errors: { 400: 'An invitation can only be re-sent to a Pending administrator; this one is Active.', 404: NOT_FOUND },
  },
  resendInvitationV2: {
    summary: 'Re-send the invitation (V2: the id in the path)',
    envelope: 'plain',
    ok: 'empty',
    errors: { 400: 'An invitation can only be re-sent to a Pending administrator; this one is Active.', 404: NOT_FOUND },
  },
  lock: {
    summary: 'Lock an administrator',
    envelope: 'plain',
    ok: 'empty',
    errors: { 400: ErrorMessages.lastScopeAdminLock, 404: NOT_FOUND },
  },
  unlock: {
    summary: 'Unlock an administrator (Active, or Pending if never activated)',
    envelope: 'plain',
    ok: 'empty',
    errors: { 400: ErrorMessages.adminUnlockState, 404: NOT_FOUND },
  },
  update: {
    summary: 'Change the name or role, or lock/unlock by status',
    envelope: 'plain',
    body: { type: UpdateAdministratorBody, example: { name: 'Jane A.', role: 'Support 2' } },
    ok: 'empty',
    errors: { 400: ErrorMessages.lastScopeAdmin, 404: NOT_FOUND },
  },
  delete: {
    summary: 'Delete an administrator',
    envelope: 'plain',
    ok: 'empty',
    errors: { 400: ErrorMessages.lastScopeAdmin, 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
