import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { FastifyRequest } from 'fastify';
import { ModelEnvelopeErrors, RouteRulesTable, SignInCall } from './route-rules';

/** Stands for a feature's refusal body (the `ra` family's model). */
const refusalOf = (_body: unknown, message: string) => ({ model: { status: 'Denied' }, success: false, message });

@ModelEnvelopeErrors()
class EnvelopedController {
  @SignInCall(refusalOf)
  signIn(): void {
    /* stands for a route handler */
  }
  list(): void {
    /* stands for a route handler */
  }
}

class PlainController {
  @SignInCall('plain')
  refresh(): void {
    /* stands for a route handler */
  }
}

const configOf = (handler: () => void) => Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler);
const request = (url: string, config?: object) => ({ url, routeOptions: { config } }) as unknown as FastifyRequest;

describe('route rules: how a route answers a refusal, declared on its controller', () => {
  it('gives every route of a @ModelEnvelopeErrors controller the model envelope, beside its own rules', () => {
    expect(configOf(EnvelopedController.prototype.signIn)).toEqual({ signInCall: refusalOf, errorEnvelope: 'model' });
    expect(configOf(EnvelopedController.prototype.list)).toEqual({ errorEnvelope: 'model' });
    expect(configOf(PlainController.prototype.refresh)).toEqual({ signInCall: 'plain' });
  });

  it("reads a matched route's rules from the route, whatever its URL", () => {
    const table = new RouteRulesTable();
    expect(table.of(request('/admins/x', { url: '/users/:id', errorEnvelope: 'model' }))).toMatchObject({ errorEnvelope: 'model' });
    expect(table.of(request('/users/x', { url: '/admins/:id' }))).toEqual({ url: '/admins/:id' });
  });

  it('answers an unmatched path like the routes that share its first segment, with or without a version', () => {
    const table = new RouteRulesTable();
    table.learn({ url: '/v2/users/:id', config: { errorEnvelope: 'model' } });
    table.learn({ url: '/admins/:id', config: {} });
    expect(table.of(request('/USERS/a/b/c?x=1'))).toEqual({ errorEnvelope: 'model' });
    expect(table.of(request('/v3/users/a/b/c'))).toEqual({ errorEnvelope: 'model' });
    expect(table.of(request('/admins/a/b/c'))).toEqual({});
    expect(table.of(request('/nothing'))).toEqual({});
  });
});
