import { parse as parseUrlencoded } from 'node:querystring';
import { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { FastifyInstance, FastifyRequest, RequestPayload } from 'fastify';
import { RouteRules } from './route-rules';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Why a body's bytes could not be read, and what the client is answered for it. */
const UNREADABLE_BODY = {
  'entity.parse.failed': { status: 400, message: 'Malformed JSON body.' },
  'charset.unsupported': { status: 415, message: 'Unsupported body encoding.' },
  'encoding.unsupported': { status: 415, message: 'Unsupported body encoding.' },
  // a Content-Encoding whose data does not inflate
  'encoding.invalid': { status: 400, message: 'The request body could not be read.' },
  // a form or any other non-JSON body sent to the JSON API
  'type.unsupported': { status: 415, message: 'Only application/json request bodies are accepted.' },
} as const;

type UnreadableBodyType = keyof typeof UNREADABLE_BODY;

/**
 * A refusal of the body's bytes before any handler runs. `type` names the problem (the same names as
 * express' body-parser, which the API was first built on); its status comes from UNREADABLE_BODY.
 */
export class UnreadableBody extends Error {
  readonly statusCode: number;
  constructor(
    readonly type: UnreadableBodyType,
    message: string,
  ) {
    super(message);
    this.statusCode = UNREADABLE_BODY[type].status;
  }
}

/** The answer to an error that refused a body's bytes (an UnreadableBody, or a stream error marked with its type). */
export function unreadableBodyAnswer(error: unknown): { status: number; message: string } | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' && Object.hasOwn(UNREADABLE_BODY, type) ? UNREADABLE_BODY[type as UnreadableBodyType] : undefined;
}

const DECOMPRESSORS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * A compressed body is inflated before it is parsed, and the 1 MiB bound applies to what it inflates
 * to (a zip bomb is a 413 like any other big body). Data that does not inflate is a 400, an encoding
 * we do not know a 415.
 */
function inflatedPayload(req: FastifyRequest, payload: RequestPayload): RequestPayload {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === '') return payload;
  const decompressor = DECOMPRESSORS[encoding];
  if (!decompressor) throw new UnreadableBody('encoding.unsupported', `unsupported content encoding "${encoding}"`);
  const inflated = decompressor() as Transform & { receivedEncodedLength: number };
  // fastify compares Content-Length with the bytes received, which are the compressed ones
  inflated.receivedEncodedLength = 0;
  payload.on('data', (chunk: Buffer) => (inflated.receivedEncodedLength += chunk.length));
  payload.on('error', (error) => inflated.destroy(error));
  // zlib's own error reaches fastify's listener as it is: marked here with its type and status
  inflated.on('error', (error: Error) => {
    if (!(error instanceof UnreadableBody)) {
      Object.assign(error, { type: 'encoding.invalid', statusCode: UNREADABLE_BODY['encoding.invalid'].status });
    }
  });
  payload.pipe(inflated);
  return inflated;
}

function charsetOf(req: FastifyRequest): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(String(req.headers['content-type'] ?? ''));
  return match?.[1].toLowerCase();
}

/**
 * JSON as the API has always read it: any JSON value (not only objects: a top-level string, number or
 * null is refused by the endpoint like any other unusable body; on the access endpoints that is a 200
 * refusal, not a parser 400), an empty body read as `{}`, UTF-8 only.
 */
function parseJson(req: FastifyRequest, body: Buffer): unknown {
  const charset = charsetOf(req);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new UnreadableBody('charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`);
  }
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new UnreadableBody('entity.parse.failed', 'malformed JSON');
  }
}

/** Whether the matched route reads HTML forms (a page's POST, declared with @FormBody()). */
function acceptsForms(req: FastifyRequest): boolean {
  return (req.routeOptions?.config as RouteRules | undefined)?.formBody === true;
}

/** Whether the matched route reads no body (declared with @IgnoredBody()): any content type is read and dropped. */
function ignoresBody(req: FastifyRequest): boolean {
  return (req.routeOptions?.config as RouteRules | undefined)?.ignoredBody === true;
}

/**
 * The body parsers of every route: JSON everywhere; HTML forms on the pages' routes only (on the JSON
 * API a form is what another site can make a browser send with its cached Basic credentials: 415); any
 * other type is a 415 on the JSON API, and read and dropped on the pages (the page refuses the missing
 * form as it refuses any). Every body counts against MAX_BODY_BYTES, chunked or not.
 */
/** A body the JSON API does not take (a form, text): on the sign-in calls a refusal like any other, not a malformed body. */
export function isNotJsonBody(error: unknown): boolean {
  return error instanceof UnreadableBody && error.type === 'type.unsupported';
}

function notJson(): UnreadableBody {
  return new UnreadableBody('type.unsupported', 'not a JSON body');
}

export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addHook('preParsing', (req, _reply, payload, done) => {
    try {
      done(null, inflatedPayload(req, payload));
    } catch (error) {
      done(error as Error);
    }
  });
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (req, body, done) => {
    if (ignoresBody(req)) return done(null, undefined);
    try {
      done(null, parseJson(req, body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (req, body, done) => {
    if (ignoresBody(req)) return done(null, undefined);
    if (!acceptsForms(req)) return done(notJson(), undefined);
    done(null, parseUrlencoded(body as string));
  });
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES }, (req, _body, done) =>
    done(acceptsForms(req) || ignoresBody(req) ? null : notJson(), undefined),
  );
}
