import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { OTP_TOKEN_KINDS } from '@twofold/domain';
import { ok } from '../http/envelope';
import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';
import { RESYNC_REFUSALS } from './token-resync';

export class ResyncTokenBody {
  @ApiProperty({
    type: [String],
    minItems: 2,
    maxItems: 2,
    description: 'two consecutive codes as the token showed them, earlier first',
    example: ['755224', '287082'],
  })
  codes!: string[];
}

@ApiSchema({ name: 'TokenResynced' })
export class TokenResyncedBody {
  @ApiPropertyOptional({ type: 'integer', description: "TOTP: the token's clock drift in seconds (positive: ahead), used from now on" })
  driftSeconds?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'HOTP: codes the token made that never reached the service' })
  countersSkipped?: number;
}

export const TOKEN_RESYNC_DOCS = {
  resync: {
    params: [{ name: 'type', enum: OTP_TOKEN_KINDS.map((kind) => kind.toLowerCase()), description: 'totptoken or hotptoken, in any case' }],
    summary: 'Resynchronize a TOTP or HOTP token from two consecutive codes (HOTP: up to 1000 ahead; TOTP: up to 10 minutes of drift)',
    envelope: 'model',
    body: { type: ResyncTokenBody, example: { codes: ['755224', '287082'] } },
    ok: { schema: modelEnvelope(ref(TokenResyncedBody)), example: ok<TokenResyncedBody>({ countersSkipped: 14 }, 'Token resynchronized.') },
    errors: { 400: RESYNC_REFUSALS.alreadyUsed, 404: 'Authenticator not found.' },
  },
} satisfies Record<string, RouteDoc>;
