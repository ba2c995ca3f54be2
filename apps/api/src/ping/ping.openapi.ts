import { TWOFOLD_VERSION } from '@twofold/domain';
import { RouteDoc } from '../openapi/api-route';

export const PING_DOCS = {
  ping: {
    summary: 'Liveness (no credentials, no database), and the version running',
    envelope: 'plain',
    ok: {
      schema: {
        type: 'object',
        required: ['status', 'version'],
        properties: {
          status: { type: 'string', enum: ['ok'] },
          version: { type: 'string', description: 'semantic version, as in CHANGELOG.md' },
        },
      },
      example: { status: 'ok', version: TWOFOLD_VERSION },
    },
  },
} satisfies Record<string, RouteDoc>;
