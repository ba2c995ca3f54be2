import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorMessages, MAX_ENROLLMENT_LINK_TTL_MINUTES, USER_SOURCES, V2_USER_FIELD_NAMES } from '@twofold/domain';
import { ok } from '../http/envelope';
import { RouteDoc } from '../openapi/api-route';
import { arrayOf, EXAMPLE, modelEnvelope, ref } from '../openapi/common.openapi';
import {
  CreatedUserDto,
  CustomFieldDto,
  CustomFieldsUpdatedDto,
  EnrollmentLinkDto,
  UserCustomFieldsDto,
  UserDto,
  UserGroupsDto,
  UserIdentityDto,
  UsersCountDto,
} from './users.dto';

/*
 * The request bodies as clients write them (keys in any case; users.commands.ts reads them), and the
 * examples of each route. The answers' schemas are the response classes of users.dto.ts, and every
 * example of an answer is typed by its class, so an example cannot drift from the schema.
 */

export class EnrollmentLinkOptions {
  @ApiPropertyOptional({ enum: ['email'], description: "`email`: mail the link to the user's e-mail; absent: return it" }) To?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ENROLLMENT_LINK_TTL_MINUTES, description: 'lifetime in minutes' })
  Ttl?: number;
  @ApiPropertyOptional({
    enum: ['ru', 'en'],
    default: 'ru',
    description: "the mail's language; the expiry is written as a duration and a UTC time",
  })
  Language?: string;
}

export class GroupChanges {
  @ApiPropertyOptional({ type: [String] }) Add?: string[];
  @ApiPropertyOptional({ type: [String], description: 'V1 update only' }) Remove?: string[];
}

export class CreateUserBody {
  @ApiProperty() Identity!: string;
  @ApiPropertyOptional({ type: 'string', format: 'email', nullable: true }) Email?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) Phone?: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) Name?: string | null;
  @ApiPropertyOptional({ enum: USER_SOURCES, description: 'Directory for a directory synchronization agent' }) Source?: string;
  @ApiPropertyOptional({ type: EnrollmentLinkOptions }) EnrollmentLink?: EnrollmentLinkOptions;
  @ApiPropertyOptional({
    enum: ['ru', 'en'],
    default: 'ru',
    description: "the enrollment mail's language, as on POST /users/{id}/enroll; EnrollmentLink.Language wins when both are given",
  })
  Language?: string;
  @ApiPropertyOptional({ type: GroupChanges }) Groups?: GroupChanges;
}

export class UpdateUserBody {
  @ApiPropertyOptional() Identity?: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) Name?: string | null;
  @ApiPropertyOptional({ type: 'string', format: 'email', nullable: true }) Email?: string | null;
  @ApiPropertyOptional() IsLocked?: boolean;
  @ApiPropertyOptional({ type: GroupChanges }) Groups?: GroupChanges;
}

export class UserField {
  @ApiProperty({ enum: V2_USER_FIELD_NAMES }) Name!: string;
  @ApiProperty({ type: 'string', nullable: true }) Value!: string | null;
}

export class UpdateUserFieldsBody {
  @ApiProperty({ type: [UserField], minItems: 1, description: 'each name at most once' }) Fields!: UserField[];
}

export class PhoneNumberBody {
  @ApiProperty({ example: '+14155550123' }) PhoneNumber!: string;
}

export class PhoneNumbersBody {
  @ApiProperty({ description: 'at most 5 numbers separated by semicolons' }) PhoneNumbers!: string;
}

export class CustomFieldsUpdateBody {
  @ApiProperty({ type: [CustomFieldDto], description: 'names compared case-insensitively; an empty name is ignored' })
  fields!: CustomFieldDto[];
}

export class CustomFieldsDeleteBody {
  @ApiProperty({ type: [String] }) fieldNames!: string[];
}

export class GroupNamesBody {
  @ApiProperty({ type: [String], minItems: 1 }) GroupNames!: string[];
}

export class EnrollBody {
  @ApiPropertyOptional({ type: 'string', format: 'email', nullable: true, description: 'absent: the link is returned, not mailed' })
  Email?: string | null;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ENROLLMENT_LINK_TTL_MINUTES, description: 'minutes' }) Ttl?: number;
  @ApiPropertyOptional({
    enum: ['ru', 'en'],
    default: 'ru',
    description: "the mail's language; the expiry is written as a duration and a UTC time",
  })
  Language?: string;
}

const USER: UserDto = {
  id: EXAMPLE.userId,
  identity: 'jane',
  name: 'Jane Doe',
  email: 'jane@example.com',
  isEnrolled: true,
  createdAt: EXAMPLE.timestamp,
  lastLogin: EXAMPLE.later,
  isLocked: false,
  groups: ['AllUsers', 'VPN'],
  authenticators: ['Totp'],
  customFields: [{ name: 'Department', value: 'Sales' }],
  codeLockouts: [{ scope: 'address', address: '203.0.113.7', resource: null, wrongCodes: 5, lockedUntil: EXAMPLE.later }],
};
const NEW_USER: UserDto = {
  ...USER,
  isEnrolled: false,
  lastLogin: null,
  authenticators: [],
  groups: ['AllUsers'],
  customFields: [],
  codeLockouts: [],
};

const NOT_FOUND = 'User not found.';

export const USER_DOCS = {
  count: {
    summary: 'Count users and licenses',
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(UsersCountDto)), example: ok<UsersCountDto>({ total: 42, limit: 100 }) },
  },
  list: {
    summary: 'List users',
    envelope: 'model',
    query: [
      { name: 'identity', required: false, type: String, description: 'filter by login' },
      {
        name: 'group',
        required: false,
        type: String,
        description:
          'ours: only the members of the group of this name (any case; AllUsers: everyone; an unknown name: none), paged by offset and limit',
      },
      { name: 'withPhones', required: false, type: Boolean, description: 'adds `phones`' },
    ],
    ok: { schema: modelEnvelope(arrayOf(ref(UserDto))), example: ok<UserDto[]>([{ ...USER, phones: ['+14155550123'] }]) },
    errors: { 400: 'withPhones must be true or false.' },
  },
  create: {
    summary: 'Register a user',
    envelope: 'model',
    body: {
      type: CreateUserBody,
      example: { Identity: 'jane', Email: 'jane@example.com', Name: 'Jane Doe', EnrollmentLink: { Ttl: 60 }, Groups: { Add: ['VPN'] } },
    },
    ok: {
      schema: modelEnvelope(ref(CreatedUserDto)),
      example: ok<CreatedUserDto>({
        ...NEW_USER,
        groups: ['AllUsers', 'VPN'],
        enrollmentLink: { url: 'https://twofold.example.com/access/enroll/EXAMPLE-ENROLLMENT-TOKEN', expiresAt: EXAMPLE.later },
      }),
    },
    errors: { 400: ErrorMessages.usersQuotaExceeded, 409: 'A user with the identity jane already exists.' },
  },
  updateV1: {
    summary: 'Change a user (V1): identity, name, e-mail, lock, groups',
    envelope: 'model',
    body: { type: UpdateUserBody, example: { Name: 'Jane Smith', IsLocked: false, Groups: { Add: ['VPN'], Remove: ['Guests'] } } },
    ok: { schema: modelEnvelope(ref(UserDto)), example: ok<UserDto>({ ...USER, name: 'Jane Smith' }) },
    errors: { 400: 'Email must be in e-mail format.', 404: NOT_FOUND, 409: 'A user with the identity jane already exists.' },
  },
  delete: {
    summary: 'Delete a user',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'User deleted.') },
    errors: { 404: NOT_FOUND },
  },
  enroll: {
    summary: 'Create an enrollment link (returned, or mailed when Email is given)',
    envelope: 'model',
    body: { type: EnrollBody, example: { Ttl: 60 } },
    ok: {
      schema: modelEnvelope(ref(EnrollmentLinkDto)),
      example: ok<EnrollmentLinkDto>(
        { url: 'https://twofold.example.com/access/enroll/EXAMPLE-ENROLLMENT-TOKEN', expiresAt: EXAMPLE.later },
        'Enrollment link created.',
      ),
    },
    errors: {
      400: `Ttl must be a whole number of minutes from 1 to ${MAX_ENROLLMENT_LINK_TTL_MINUTES}.`,
      404: NOT_FOUND,
      503: 'The e-mail could not be sent. Try again later.',
    },
  },
  updateV2: {
    summary: 'Change identity, name or e-mail (V2)',
    envelope: 'model',
    body: { type: UpdateUserFieldsBody, example: { Fields: [{ Name: 'Email', Value: 'jane.doe@example.com' }] } },
    ok: {
      schema: modelEnvelope(ref(UserIdentityDto)),
      example: ok<UserIdentityDto>({ id: EXAMPLE.userId, identity: 'jane', name: 'Jane Doe', email: 'jane.doe@example.com' }),
    },
    errors: { 400: 'Fields must not be empty.', 404: NOT_FOUND, 409: 'A user with the identity jane already exists.' },
  },
  setPhone: {
    summary: 'Add or update the phone number (V2; enables SMS)',
    envelope: 'model',
    body: { type: PhoneNumberBody, example: { PhoneNumber: '+14155550123' } },
    ok: { schema: modelEnvelope(null), example: ok(null, 'Phone number saved.') },
    errors: { 400: 'Phone number 12 is incorrect.', 404: NOT_FOUND },
  },
  updateCustomFields: {
    summary: 'Set custom fields (created or changed; others kept)',
    description: 'An internal failure answers 200 `{success: false, message, traceId}`.',
    envelope: 'model',
    body: { type: CustomFieldsUpdateBody, example: { fields: [{ name: 'Department', value: 'Sales' }] } },
    ok: {
      schema: ref(CustomFieldsUpdatedDto),
      example: { success: true, message: null, data: { customFields: { Department: 'Sales' } } } satisfies CustomFieldsUpdatedDto,
    },
    errors: { 400: ErrorMessages.directorySyncEnabled, 404: NOT_FOUND },
  },
  deleteCustomFields: {
    summary: 'Remove custom fields by name',
    description: 'An internal failure answers 200 `{success: false, message, traceId}`.',
    envelope: 'model',
    body: { type: CustomFieldsDeleteBody, example: { fieldNames: ['Department'] } },
    ok: {
      schema: modelEnvelope(ref(UserCustomFieldsDto)),
      example: ok<UserCustomFieldsDto>({ id: EXAMPLE.userId, identity: 'jane', customFields: [] }),
    },
    errors: { 400: 'fieldNames must be an array of strings.', 404: NOT_FOUND },
  },
  lock: {
    summary: 'Lock a user',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'User locked.') },
    errors: { 404: NOT_FOUND },
  },
  unlock: {
    summary: 'Unlock a user',
    description: 'Ends an administrator lock (isLocked) and every lockout for wrong codes (codeLockouts).',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'User unlocked.') },
    errors: { 404: NOT_FOUND },
  },
  addGroups: {
    summary: 'Add the user to groups',
    envelope: 'model',
    body: { type: GroupNamesBody, example: { GroupNames: ['VPN'] } },
    ok: {
      schema: modelEnvelope(ref(UserGroupsDto)),
      example: ok<UserGroupsDto>({ id: EXAMPLE.userId, identity: 'jane', groups: ['AllUsers', 'VPN'] }),
    },
    errors: { 400: 'Group not found: Finance.', 404: NOT_FOUND },
  },
  removeGroups: {
    summary: 'Remove the user from groups',
    envelope: 'model',
    body: { type: GroupNamesBody, example: { GroupNames: ['VPN'] } },
    ok: {
      schema: modelEnvelope(ref(UserGroupsDto)),
      example: ok<UserGroupsDto>({ id: EXAMPLE.userId, identity: 'jane', groups: ['AllUsers'] }),
    },
    errors: { 400: 'The system group AllUsers can be neither added nor removed.', 404: NOT_FOUND },
  },
  replacePhones: {
    summary: 'Replace the phone numbers (V3)',
    envelope: 'model',
    body: { type: PhoneNumbersBody, example: { PhoneNumbers: '+14155550123;+14155550124' } },
    ok: { schema: modelEnvelope(null), example: ok(null, 'Phone numbers saved.') },
    errors: { 400: 'PhoneNumbers must not be empty.', 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
