import { FastifyInstance } from 'fastify';
import { AppMetrics, UNMATCHED_ROUTE } from './app-metrics';

/**
 * Every answer counted by the route Fastify matched (its pattern, `/users/:id`), never by the URL:
 * ids in paths would make a series per id. Requests no route matched share one label. An
 * `onResponse` hook sees refusals before the handler (400, 413, 415) too, and runs after the answer
 * is sent, off the client's latency.
 */
export function addHttpMetrics(fastify: FastifyInstance, metrics: AppMetrics): void {
  fastify.addHook('onResponse', (req, reply, done) => {
    const route = req.is404 ? UNMATCHED_ROUTE : (req.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.observeResponse(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
