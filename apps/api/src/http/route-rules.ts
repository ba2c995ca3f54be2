import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { Injectable } from '@nestjs/common';
import { FastifyRequest, RouteOptions } from 'fastify';

/**
 * How a route answers a refusal, declared on its controller and read back by ApiExceptionFilter from
 * the route Fastify matched (`request.routeOptions.config`), not from its URL.
 */
export interface RouteRules {
  /** The enveloped APIs answer `{model: null, success: false, message, traceId}`, others `{message, traceId}` */
  errorEnvelope?: 'model';
  /**
   * A call an integration makes at each sign-in, whose refusals are 200 `success: false`:
   * `plain` with `model: null`, or with the body its feature makes (the `ra` family's whole model)
   */
  signInCall?: 'plain' | SignInRefusal;
  /**
   * the route reads HTML form posts (the pages). Every other route takes JSON only: a browser holding
   * cached Basic credentials could otherwise be driven by another site's form (urlencoded, multipart or
   * text/plain, the only bodies a form can send without the site's consent) to call the JSON API
   */
  formBody?: true;
  /**
   * the route reads no body at all: whatever is sent (a client that posts an empty form, a JSON string)
   * is read within the size bound and dropped. Only for routes no browser can be made to call with
   * credentials it holds: a Bearer token is never sent by a browser on its own
   */
  ignoredBody?: true;
}

/**
 * The body of a sign-in call's refusal, made by the feature that owns the call from the body it could
 * not use and the refusal's message.
 */
export type SignInRefusal = (body: unknown, message: string) => { model: unknown; success: boolean; message: string | null };

function addRules(handler: object, rules: RouteRules): void {
  const config: RouteRules = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {};
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, ...rules }, handler);
}

/** Every route of the controller refuses with the model envelope (the user, journal, group, resource and access APIs). */
export function ModelEnvelopeErrors(): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const member = Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (name !== 'constructor' && typeof member === 'function') addRules(member, { errorEnvelope: 'model' });
    }
  };
}

/** A call an integration makes at each sign-in, and the body of its refusals. */
export function SignInCall(refusal: 'plain' | SignInRefusal): MethodDecorator {
  return (_target, _key, descriptor) => {
    addRules(descriptor.value as object, { signInCall: refusal });
    return descriptor;
  };
}

/** A page's form post: the route reads `application/x-www-form-urlencoded` bodies (see RouteRules.formBody). */
export function FormBody(): MethodDecorator {
  return (_target, _key, descriptor) => {
    addRules(descriptor.value as object, { formBody: true });
    return descriptor;
  };
}

/** A route that reads no body, whatever its content type (see RouteRules.ignoredBody). */
export function IgnoredBody(): MethodDecorator {
  return (_target, _key, descriptor) => {
    addRules(descriptor.value as object, { ignoredBody: true });
    return descriptor;
  };
}

/** The first segment of a path after its version prefix: `users` of `/v2/users/x`. */
function resourceSegment(url: string): string | undefined {
  const segments = url.split('?')[0].split('/').filter(Boolean);
  const first = /^v\d+$/i.test(segments[0] ?? '') ? segments[1] : segments[0];
  return first?.toLowerCase();
}

/**
 * The rules of each request's route. A request no route matched (an unknown path, or a body refused
 * before routing) takes the envelope of the routes that share its first segment, learned as Nest
 * registers them: `/users/x/y/z` is answered like the user API.
 */
@Injectable()
export class RouteRulesTable {
  private readonly modelEnvelopeSegments = new Set<string>();

  /** For Fastify's `onRoute` hook: called once per route, before the server listens. */
  learn(route: Pick<RouteOptions, 'url' | 'config'>): void {
    const segment = resourceSegment(route.url);
    if (segment && (route.config as RouteRules | undefined)?.errorEnvelope === 'model') this.modelEnvelopeSegments.add(segment);
  }

  of(request: FastifyRequest): RouteRules {
    const config = request.routeOptions?.config as (RouteRules & { url?: string }) | undefined;
    if (config?.url !== undefined) return config;
    const segment = resourceSegment(request.url);
    return segment && this.modelEnvelopeSegments.has(segment) ? { errorEnvelope: 'model' } : {};
  }
}
