import { applyDecorators, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiParamOptions,
  ApiProduces,
  ApiQuery,
  ApiQueryOptions,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ExamplesObject, SchemaObject } from '@nestjs/swagger';
import { TRACE_HEADER } from '../http/trace-id';
import { EnvelopeErrorBody, ErrorBody, EXAMPLE, ref, Schema } from './common.openapi';

/**
 * Which error body a route answers (`http/envelope.ts`): `{message, traceId}` for the
 * administrator API and the unenveloped routes, `{model: null, success: false, message, traceId}` for the rest.
 */
export type ErrorEnvelope = 'plain' | 'model';

/** The names of the two security schemes of the document; `openapi.spec.ts` checks them against the guards. */
export const ACCOUNT_AUTH = 'account';
export const RESOURCE_AUTH = 'resource';
/** an access token the service issued, as `Authorization: Bearer` (AccessTokenBearerGuard) */
export const ACCESS_TOKEN_AUTH = 'accessToken';
/** Telegram's webhook secret header (telegram/telegram-webhook.guard.ts) */
export const TELEGRAM_SECRET_AUTH = 'telegramSecret';

/** Statuses a route may refuse with, each with the exact message of one such refusal as its example. */
export type RouteErrors = Partial<Record<400 | 403 | 404 | 409 | 410 | 413 | 503, string>>;

export interface RouteDoc {
  summary: string;
  description?: string;
  envelope: ErrorEnvelope;
  /** the JSON body; keys are matched case-insensitively */
  body?: { type: Type<unknown>; example: unknown } | { schema: Schema; example: unknown };
  query?: ApiQueryOptions[];
  /** what the path parameters mean, beyond their name (every `:name` of the route is documented, described or not) */
  params?: ApiParamOptions[];
  /** 200's body and an example; 'empty' for the bare 200 of the administrator API */
  ok: { schema: Schema; example?: unknown; examples?: ExamplesObject; description?: string } | 'empty';
  errors?: RouteErrors;
}

/** Error bodies are JSON whatever the route produces (a page's refusal before it renders included). */
function json(schema: Schema, example: unknown) {
  return { 'application/json': { schema, example } };
}

function errorResponse(status: number, envelope: ErrorEnvelope, message: string, description: string) {
  const example =
    envelope === 'model' ? { model: null, success: false, message, traceId: EXAMPLE.traceId } : { message, traceId: EXAMPLE.traceId };
  return ApiResponse({ status, description, content: json(ref(envelope === 'model' ? EnvelopeErrorBody : ErrorBody), example) });
}

const ERROR_DESCRIPTIONS: Record<keyof RouteErrors, string> = {
  400: 'invalid input (an unreadable body, a failed validation) or a business rule',
  403: 'refused by a rule of the resource',
  404: 'unknown id, or an id of another account (never revealed)',
  409: 'conflict with an existing record',
  410: 'no longer valid',
  413: 'body over 1 MiB',
  503: 'the mail could not be sent',
};

/**
 * The route's path parameters: its handler reads them with `@Input('path', …)`, which the document
 * generator does not see, so each `:name` of the path is documented here, in the path's order (as
 * text, unless `described` says more). The route's path is there because @ApiRoute is written above @Get, @Post, ….
 */
function pathParameters(handler: object, described: readonly ApiParamOptions[], route: string): ApiParamOptions[] {
  const paths: unknown = Reflect.getMetadata(PATH_METADATA, handler);
  if (paths === undefined) throw new Error(`@ApiRoute of ${route} must be written above its route decorator (@Get, @Post, …)`);
  const names = new Set([paths].flat().flatMap((path) => [...String(path).matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1])));
  const inPath = [...names].map((name) => described.find((param) => param.name === name) ?? { name, required: true, type: String });
  return [...inPath, ...described.filter((param) => !names.has(param.name as string))];
}

/** One route's documentation in one decorator: summary, body, query, path parameters, 200 and its refusals. */
export function ApiRoute(doc: RouteDoc): MethodDecorator {
  return (target, key, descriptor) => {
    const params = pathParameters(descriptor.value as object, doc.params ?? [], `${target.constructor.name}.${String(key)}`);
    return applyDecorators(...routeDecorators(doc, params))(target, key, descriptor);
  };
}

function routeDecorators(doc: RouteDoc, params: readonly ApiParamOptions[]): Array<MethodDecorator | ClassDecorator> {
  const decorators: Array<MethodDecorator | ClassDecorator> = [ApiOperation({ summary: doc.summary, description: doc.description })];
  if (doc.body) {
    const schema = 'type' in doc.body ? ref(doc.body.type) : doc.body.schema;
    if ('type' in doc.body) decorators.push(ApiExtraModels(doc.body.type));
    decorators.push(ApiBody({ schema, examples: { request: { value: doc.body.example } } }));
  }
  for (const query of doc.query ?? []) decorators.push(ApiQuery(query));
  for (const param of params) decorators.push(ApiParam(param));
  if (doc.ok === 'empty') {
    decorators.push(ApiResponse({ status: 200, description: 'done; no body' }));
  } else {
    const { schema, example, examples, description } = doc.ok;
    decorators.push(
      ApiResponse({ status: 200, description: description ?? 'success', schema, ...(examples ? { examples } : { example }) }),
    );
  }
  for (const [status, message] of Object.entries(doc.errors ?? {})) {
    const code = Number(status) as keyof RouteErrors;
    decorators.push(errorResponse(code, doc.envelope, message, ERROR_DESCRIPTIONS[code]));
  }
  return decorators;
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': { description: 'always `Basic realm="api"`', schema: { type: 'string' } as SchemaObject } };
const RETRY_AFTER = {
  'Retry-After': { description: 'seconds until the throttle window ends', schema: { type: 'integer' } as SchemaObject },
};

function authResponses(envelope: ErrorEnvelope, accountKey: boolean) {
  const body = envelope === 'model' ? EnvelopeErrorBody : ErrorBody;
  const example = (message: string) =>
    envelope === 'model' ? { model: null, success: false, message, traceId: EXAMPLE.traceId } : { message, traceId: EXAMPLE.traceId };
  const responses = [
    ApiResponse({
      status: 401,
      description: 'missing or wrong credentials' + (accountKey ? ', or a resource key' : ', or an account key'),
      headers: WWW_AUTHENTICATE,
      content: json(ref(body), example('Authentication required.')),
    }),
    ApiResponse({
      status: 429,
      description: 'more than 20 failed authentications from this client within a minute',
      headers: RETRY_AFTER,
      content: json(ref(body), example('Too many failed authentication attempts. Try again later.')),
    }),
  ];
  if (accountKey) {
    responses.push(
      ApiResponse({
        status: 403,
        description: "the account's extended API is disabled",
        content: json(ref(body), example('The extended API is disabled for this account.')),
      }),
    );
  }
  return responses;
}

/** HTTP Basic with the account's API key and secret (`AccountAuthGuard`), and its 401/403/429. */
export function ApiAccountAuth(envelope: ErrorEnvelope): ClassDecorator & MethodDecorator {
  return applyDecorators(ApiBasicAuth(ACCOUNT_AUTH), ...authResponses(envelope, true));
}

/** HTTP Basic with a resource's key and secret (`ResourceAuthGuard`), and its 401/429. */
export function ApiResourceAuth(envelope: ErrorEnvelope): ClassDecorator & MethodDecorator {
  return applyDecorators(ApiBasicAuth(RESOURCE_AUTH), ...authResponses(envelope, false));
}

/** An access token the service issued, as Bearer (`AccessTokenBearerGuard`), and its 401/429. */
export function ApiAccessTokenAuth(): ClassDecorator & MethodDecorator {
  const example = (message: string) => ({ model: null, success: false, message, traceId: EXAMPLE.traceId });
  return applyDecorators(
    ApiBearerAuth(ACCESS_TOKEN_AUTH),
    ApiResponse({
      status: 401,
      description: 'no token, or one that is malformed, expired, not issued by this service or of a resource that no longer exists',
      content: json(ref(EnvelopeErrorBody), example('Authentication required.')),
    }),
    ApiResponse({
      status: 429,
      description: 'more than 20 failed authentications from this client within a minute',
      headers: RETRY_AFTER,
      content: json(ref(EnvelopeErrorBody), example('Too many failed authentication attempts. Try again later.')),
    }),
  );
}

/** `X-Telegram-Bot-Api-Secret-Token` (TelegramWebhookGuard) and its 401. */
export function ApiTelegramSecret(): ClassDecorator & MethodDecorator {
  return applyDecorators(
    ApiSecurity(TELEGRAM_SECRET_AUTH),
    ApiResponse({
      status: 401,
      description: 'the header is missing or not the configured TELEGRAM_WEBHOOK_SECRET; nothing is read or decided',
      content: json(ref(ErrorBody), { message: 'Authentication required.', traceId: EXAMPLE.traceId }),
    }),
  );
}

/** A controller's tag and the error schemas its routes refer to. */
export function ApiFeature(tag: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiExtraModels(ErrorBody, EnvelopeErrorBody), ApiHeader(TRACE_ID_HEADER));
}

/** Every route takes the caller's trace id and echoes it (or a fresh UUID) in the same header. */
const TRACE_ID_HEADER = {
  name: TRACE_HEADER,
  required: false,
  description: "1-128 visible ASCII characters, echoed in the answer and used as the error body's traceId; otherwise a fresh UUID",
  schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' } as SchemaObject,
};

/** A server-rendered page for people (the access and enrollment pages): HTML, never JSON; no credentials. */
export function ApiPage(doc: {
  summary: string;
  description?: string;
  statuses: Record<number, string>;
  form?: SchemaObject;
  /** refusals before the page is rendered (text PostgreSQL cannot store): JSON, in the envelope of the page's path */
  errors?: RouteErrors;
}): MethodDecorator {
  const decorators: MethodDecorator[] = [ApiOperation({ summary: doc.summary, description: doc.description }), ApiProduces('text/html')];
  if (doc.form) {
    decorators.push(
      ApiConsumes('application/x-www-form-urlencoded'),
      ApiBody({ schema: doc.form, examples: { form: { value: { code: '123456' } } } }),
    );
  }
  for (const [status, message] of Object.entries(doc.errors ?? {})) {
    const code = Number(status) as keyof RouteErrors;
    decorators.push(errorResponse(code, 'model', message, ERROR_DESCRIPTIONS[code]));
  }
  for (const [status, description] of Object.entries(doc.statuses)) {
    decorators.push(
      ApiResponse({
        status: Number(status),
        description,
        content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html><html lang="en">…</html>' } },
      }),
    );
  }
  return applyDecorators(...decorators);
}
