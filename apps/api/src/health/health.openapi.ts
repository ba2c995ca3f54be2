import { RouteDoc } from '../openapi/api-route';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../http/database-health';

export const HEALTH_DOCS = {
  ready: {
    summary: 'Readiness: the database answers (no credentials)',
    description: 'For load balancers and the container healthcheck. `/ping` is liveness and does not touch the database.',
    envelope: 'plain',
    ok: {
      schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ready'] } } },
      example: { status: 'ready' },
    },
    errors: { 503: DATABASE_UNAVAILABLE_MESSAGE },
  },
} satisfies Record<string, RouteDoc>;
