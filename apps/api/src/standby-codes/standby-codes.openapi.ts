import { ApiPropertyOptional } from '@nestjs/swagger';
import { BYPASS_CODE_LIMITS } from '@twofold/domain';
import { ok } from '../http/envelope';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, modelEnvelope, ref } from '../openapi/common.openapi';
import { BypassCodesDto, RecoveryCodesDto } from './standby-codes.dto';

const { count, uses, ttlMinutes } = BYPASS_CODE_LIMITS;

export class CreateBypassCodesBody {
  @ApiPropertyOptional({ type: 'integer', minimum: count.min, maximum: count.max, default: count.default }) count?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: uses.min, maximum: uses.max, default: uses.default, description: 'sign-ins per code' })
  uses?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: ttlMinutes.min, maximum: ttlMinutes.max, default: ttlMinutes.default })
  ttlMinutes?: number;
}

const NOT_FOUND = 'User not found.';

export const STANDBY_CODE_DOCS = {
  bypassCodes: {
    summary: 'Hand out helpdesk bypass codes for a user who cannot use their second factor (shown once)',
    envelope: 'model',
    body: { type: CreateBypassCodesBody, example: { count: 1, uses: 1, ttlMinutes: 60 } },
    ok: {
      schema: modelEnvelope(ref(BypassCodesDto)),
      example: ok<BypassCodesDto>({ codes: ['7K2M-9QXD-4RPA'], uses: 1, expiresAt: EXAMPLE.later }, 'Bypass codes created.'),
    },
    errors: { 400: `ttlMinutes must be an integer from ${ttlMinutes.min} to ${ttlMinutes.max}.`, 404: NOT_FOUND },
  },
  recoveryCodes: {
    summary: "Make a user's ten recovery codes anew (shown once); the earlier ones stop working",
    envelope: 'model',
    ok: {
      schema: modelEnvelope(ref(RecoveryCodesDto)),
      example: ok<RecoveryCodesDto>({ codes: ['7K2M-9QXD-4RPA', 'H3W8-QN5T-0ZCE'] }, 'Recovery codes created.'),
    },
    errors: { 404: NOT_FOUND },
  },
} satisfies Record<string, RouteDoc>;
