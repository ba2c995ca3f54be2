import { RouteDoc } from '../openapi/api-route';

export const PING_DOCS = {
  ping: {
    summary: 'Liveness (no credentials, no database)',
    envelope: 'plain',
    ok: {
      schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } },
      example: { status: 'ok' },
    },
  },
} satisfies Record<string, RouteDoc>;
