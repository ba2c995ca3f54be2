import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { EXAMPLE, ref } from '../openapi/common.openapi';
import { REFRESH_REFUSALS } from './token-refresh.service';

export class TokenRefreshBody {
  @ApiProperty({ description: 'a token this resource was issued; a `Claims` field is ignored' }) AccessToken!: string;
}

export class JsonWebKey {
  @ApiProperty({ enum: ['RSA'] }) kty!: string;
  @ApiProperty() n!: string;
  @ApiProperty() e!: string;
  @ApiProperty() kid!: string;
  @ApiProperty({ enum: ['RS256'] }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}

export class JsonWebKeySet {
  @ApiProperty({ type: [JsonWebKey] }) keys!: JsonWebKey[];
}

// a fake token: three base64url parts that decode to nothing usable
const FAKE_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.RVhBTVBMRS1OT1QtQS1UT0tFTg.RVhBTVBMRS1TSUdOQVRVUkU';

export const TOKEN_DOCS = {
  refresh: {
    summary: 'Refresh an access token (resource credentials)',
    description: 'Every refusal is 200 `{model: null, success: false, message}` (CONTRACT §8.1, §8.10).',
    envelope: 'model',
    body: { type: TokenRefreshBody, example: { AccessToken: FAKE_TOKEN } },
    ok: {
      schema: {
        type: 'object',
        required: ['model', 'success', 'message'],
        properties: {
          model: { type: 'string', nullable: true, description: 'the new token; null on a refusal' },
          success: { type: 'boolean' },
          message: { type: 'string', nullable: true },
          traceId: { type: 'string', description: 'on refusals' },
        },
      },
      examples: {
        refreshed: { summary: 'a new token', value: { model: FAKE_TOKEN, success: true, message: null } },
        refused: {
          summary: 'refused',
          value: { model: null, success: false, message: REFRESH_REFUSALS.missing, traceId: EXAMPLE.traceId },
        },
      },
    },
    errors: { 400: 'Malformed JSON body.', 413: 'Request body exceeds 1 MiB.' },
  },
  jwks: {
    summary: 'Public keys of JwtRS256 tokens (no credentials)',
    envelope: 'plain',
    ok: {
      schema: ref(JsonWebKeySet),
      example: { keys: [{ kty: 'RSA', n: 'EXAMPLE-MODULUS-base64url', e: 'AQAB', kid: 'example-key-id', alg: 'RS256', use: 'sig' }] },
    },
  },
} satisfies Record<string, RouteDoc>;
