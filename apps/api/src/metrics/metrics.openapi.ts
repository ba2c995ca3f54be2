import { RouteDoc } from '../openapi/api-route';

export const METRICS_DOCS = {
  scrape: {
    summary: 'Prometheus metrics (no credentials; only from METRICS_ALLOW addresses)',
    description:
      'The Prometheus text format (`text/plain; version=0.0.4`): requests and latency by route pattern, one-time codes by result, ' +
      'access requests created, code lockouts, the database pool, and Node.js process metrics. Traffic volumes only: no identity, ' +
      'key or code. Answered only when `METRICS` is on and the client address (behind `TRUSTED_PROXIES`) is in `METRICS_ALLOW`; ' +
      'otherwise 404, as for any unknown path.',
    envelope: 'plain',
    ok: {
      schema: { type: 'string' },
      example:
        '# HELP twofold_http_requests_total HTTP requests answered, by method, matched route pattern and status\n' +
        '# TYPE twofold_http_requests_total counter\n' +
        'twofold_http_requests_total{method="GET",route="/users/:id",status="200"} 42\n',
      description: 'the metrics, `text/plain; version=0.0.4; charset=utf-8`',
    },
    errors: { 404: 'Not found.' },
  },
} satisfies Record<string, RouteDoc>;
