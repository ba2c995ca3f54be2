import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AUTHENTICATOR_KINDS, OTP_TOKEN_ALGORITHMS } from '@twofold/domain';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, modelEnvelope, ref } from '../openapi/common.openapi';
import { ok } from '../http/envelope';
import { AuthenticatorDto, AuthenticatorsByKindDto, CopiedTokenDto, RegisteredTokenDto } from './authenticators.dto';

/* The request bodies as clients write them, and each route's examples, typed by their answer's class (authenticators.dto.ts). */

export class RegisterTokenBody {
  @ApiProperty() Name!: string;
  @ApiProperty({ pattern: '^([0-9a-fA-F]{2}){16,64}$', description: 'hex, 16 to 64 bytes; never returned' }) Key!: string;
  @ApiPropertyOptional({ pattern: '^([0-9a-fA-F]{2})+$', description: 'hex uid of a hardware token' }) PrivateId?: string;
  @ApiPropertyOptional({ enum: OTP_TOKEN_ALGORITHMS, default: 'SHA1', description: 'SHA256 and SHA512 for HOTP tokens only' })
  Algorithm?: string;
}

export class UpdateAuthenticatorBody {
  @ApiPropertyOptional({ description: 'the new display name' }) Name?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'moves an OTP token to this user of the account' }) user?: string;
}

export class CopyTokenBody {
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1 }) users!: string[];
}

const BY_KIND = {
  type: 'object',
  description: 'kind → authenticators; only the kinds the user has',
  properties: Object.fromEntries(AUTHENTICATOR_KINDS.map((kind) => [kind, { type: 'array', items: ref(AuthenticatorDto) }])),
  additionalProperties: false,
} as const;

/** `{type}`: the kind in lower case (any case is accepted); only the OTP token kinds can be registered, moved or copied. */
const ANY_KIND = [{ name: 'type', enum: AUTHENTICATOR_KINDS.map((kind) => kind.toLowerCase()), description: 'the kind, in any case' }];
const TOKEN_KIND = [{ name: 'type', enum: ['totptoken', 'hotptoken'], description: 'an OTP token kind, in any case' }];

const USER_NOT_FOUND = 'User not found.';
const SMS_IS_A_PHONE = 'An SMS authenticator is a phone number: remove it with the phone endpoints of the user API.';
const OTP_ONLY = 'Only totptoken and hotptoken authenticators can be registered, moved or copied.';

export const AUTHENTICATOR_DOCS = {
  list: {
    summary: "List a user's authenticators by kind",
    envelope: 'model',
    ok: {
      schema: modelEnvelope(BY_KIND),
      example: ok<AuthenticatorsByKindDto>({
        Totp: [{ id: EXAMPLE.authenticatorId, name: 'Phone' }],
        Sms: [{ id: EXAMPLE.requestId, name: '+14155550123' }],
      }),
    },
    errors: { 404: USER_NOT_FOUND },
  },
  register: {
    params: TOKEN_KIND,
    summary: 'Register an OTP token (totptoken or hotptoken)',
    envelope: 'model',
    body: { type: RegisterTokenBody, example: { Name: 'Token 1', Key: '00112233445566778899aabbccddeeff', Algorithm: 'SHA1' } },
    ok: {
      schema: modelEnvelope(ref(RegisteredTokenDto)),
      example: ok<RegisteredTokenDto>({ id: EXAMPLE.authenticatorId }, 'Authenticator registered.'),
    },
    errors: { 400: OTP_ONLY, 404: USER_NOT_FOUND },
  },
  update: {
    params: ANY_KIND,
    summary: 'Rename an authenticator, or move an OTP token to another user',
    envelope: 'model',
    body: { type: UpdateAuthenticatorBody, example: { Name: 'Spare token' } },
    ok: { schema: modelEnvelope(null), example: ok(null, 'Authenticator renamed.') },
    errors: { 400: 'Name must be a non-empty string.', 404: 'Authenticator not found.' },
  },
  copy: {
    params: TOKEN_KIND,
    summary: 'Copy an OTP token to other users (it stays with this one)',
    envelope: 'model',
    body: { type: CopyTokenBody, example: { users: [EXAMPLE.otherUserId] } },
    ok: {
      schema: modelEnvelope(ref(CopiedTokenDto)),
      example: ok<CopiedTokenDto>({ copies: [{ userId: EXAMPLE.otherUserId, id: EXAMPLE.authenticatorId }] }, 'Authenticator copied.'),
    },
    errors: { 400: OTP_ONLY, 404: 'Authenticator not found.' },
  },
  disable: {
    params: ANY_KIND,
    summary: 'Disable an authenticator: it stays listed, but no code of it is accepted (ours)',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(AuthenticatorDto)),
      example: ok<AuthenticatorDto>({ id: EXAMPLE.authenticatorId, name: 'Phone', disabled: true }, 'Authenticator disabled.'),
    },
    errors: { 400: SMS_IS_A_PHONE, 404: 'Authenticator not found.' },
  },
  enable: {
    params: ANY_KIND,
    summary: 'Enable a disabled authenticator again (ours)',
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(AuthenticatorDto)),
      example: ok<AuthenticatorDto>({ id: EXAMPLE.authenticatorId, name: 'Phone' }, 'Authenticator enabled.'),
    },
    errors: { 400: SMS_IS_A_PHONE, 404: 'Authenticator not found.' },
  },
  delete: {
    params: ANY_KIND,
    summary: 'Delete one authenticator',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, 'Authenticator deleted.') },
    errors: { 404: 'Authenticator not found.' },
  },
  deleteKind: {
    params: ANY_KIND,
    summary: 'Delete every authenticator of one kind',
    envelope: 'model',
    ok: { schema: modelEnvelope(null), example: ok(null, '2 authenticators deleted.') },
    errors: { 404: 'Authenticator kind not found.' },
  },
} satisfies Record<string, RouteDoc>;
