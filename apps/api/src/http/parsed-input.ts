import { ArgumentMetadata, createParamDecorator, ExecutionContext, Inject, Injectable, PipeTransform } from '@nestjs/common';
import { Clock, DEFAULT_IDENTITY_FORMAT, IdentityFormat, Page, parsePage, ValidationFailed } from '@twofold/domain';
import { CLOCK } from '../config/injection-tokens';

/**
 * The parameters of a query string, read by name in any case (`EventDate` and `eventdate`
 * alike). A parameter given twice, in any spellings, reads as the list of its values, so that one
 * meant once can be refused rather than one of its values picked.
 */
export class QueryParameters {
  private constructor(private readonly byLowerName: ReadonlyMap<string, string | string[]>) {}

  static of(query: unknown): QueryParameters {
    const byLowerName = new Map<string, string | string[]>();
    if (query !== null && typeof query === 'object') {
      for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
        const values = ([] as unknown[]).concat(value).map(String);
        const lower = key.toLowerCase();
        const existing = byLowerName.get(lower);
        const all = existing === undefined ? values : ([] as string[]).concat(existing, values);
        byLowerName.set(lower, all.length === 1 ? all[0] : all);
      }
    }
    return new QueryParameters(byLowerName);
  }

  /** The value as sent: one text, or the list when the parameter was repeated. */
  get(name: string): string | string[] | undefined {
    return this.byLowerName.get(name.toLowerCase());
  }

  /** A parameter meant once: its text, or undefined when absent. */
  single(name: string): string | undefined {
    const value = this.get(name);
    if (Array.isArray(value)) throw new ValidationFailed(`${name} must be given once.`);
    return value;
  }

  /** Every value of a parameter that may be repeated (`action=A&action=B`). */
  all(name: string): string[] {
    return ([] as string[]).concat(this.get(name) ?? []);
  }

  /** `offset` and `limit`: 0 and 100 by default, limit at most 1000, non-negative integers. */
  page(): Page {
    return parsePage(this.get('offset'), this.get('limit'));
  }
}

/** The query of a plain paged list: `offset` and `limit`, nothing else read. */
export function parsePageQuery(query: QueryParameters): Page {
  return query.page();
}

/** What a parser knows of the call besides its raw input. */
export interface InputContext {
  /** the identity format of the caller's account, carried by its principal (no database read); the default without one */
  readonly identityFormat: IdentityFormat;
  /** the clock's now as the input is read, for rules of time (`eventDate` must be a past day) */
  readonly now: Date;
}

/** The path's parameters by name, as the router matched them. */
export type PathParameters = Readonly<Record<string, string | undefined>>;

/** What the parser of each source of input receives. */
export interface InputSources {
  body: unknown;
  query: QueryParameters;
  path: PathParameters;
}

export type InputSource = keyof InputSources;
export type InputParser<S extends InputSource, T> = (input: InputSources[S], context: InputContext) => T;

/**
 * The order a handler's inputs are judged in, whatever the order they are declared in: what a request
 * asks (its body, its query) before what it names (its path's ids and kinds). Services read the path
 * after the body was parsed, and a request wrong in both ways keeps the answer it always had.
 */
const SOURCE_ORDER: readonly InputSource[] = ['body', 'query', 'path'];

interface InputSpec {
  source: InputSource;
  parse: InputParser<InputSource, unknown>;
  index: number;
}

const INPUTS_METADATA = 'twofold:inputs';

interface CallInput {
  request: { body?: unknown; query?: unknown; params?: PathParameters; user?: { identityFormat?: IdentityFormat } };
  handler: object;
}

const CallInputOf = createParamDecorator(
  (_spec: InputSpec, context: ExecutionContext): CallInput => ({
    request: context.switchToHttp().getRequest<CallInput['request']>(),
    handler: context.getHandler(),
  }),
);

type Parsed = { refusal: unknown } | { values: ReadonlyMap<InputSpec, unknown> };

/** Each request's parsed inputs, kept with the request (a pipe may have several instances). */
const parsedByRequest = new WeakMap<object, Parsed>();

function rawInput(request: CallInput['request'], source: InputSource): InputSources[InputSource] {
  if (source === 'body') return request.body;
  if (source === 'query') return QueryParameters.of(request.query);
  return request.params ?? {};
}

/**
 * Runs a handler's parsers. Nest resolves a handler's parameters concurrently, in an order it does not
 * promise, and answers the first that fails: so the first of a handler's inputs to be read parses all
 * of them, in SOURCE_ORDER, once per request, and every input of the call gives that one outcome.
 */
@Injectable()
export class ParseInputPipe implements PipeTransform<CallInput, unknown> {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  transform({ request, handler }: CallInput, metadata: ArgumentMetadata): unknown {
    let parsed = parsedByRequest.get(request);
    if (!parsed) {
      parsed = this.parseAll(request, handler);
      parsedByRequest.set(request, parsed);
    }
    if ('refusal' in parsed) throw parsed.refusal;
    return parsed.values.get(metadata.data as unknown as InputSpec);
  }

  private parseAll(request: CallInput['request'], handler: object): Parsed {
    const specs: InputSpec[] = [...(Reflect.getMetadata(INPUTS_METADATA, handler) ?? [])];
    specs.sort((a, b) => SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source) || a.index - b.index);
    const context: InputContext = { identityFormat: request.user?.identityFormat ?? DEFAULT_IDENTITY_FORMAT, now: this.clock.now() };
    const values = new Map<InputSpec, unknown>();
    try {
      for (const spec of specs) values.set(spec, spec.parse(rawInput(request, spec.source), context));
    } catch (refusal) {
      return { refusal };
    }
    return { values };
  }
}

/**
 * One input of a handler, parsed at the edge into the endpoint's typed command: `parse` gets the raw
 * body (`'body'`), the query's parameters read by name in any case (`'query'`) or the path's
 * parameters (`'path'`), and the context of the call (the caller's identity format, the clock's now).
 * A refusal is the parser's ValidationFailed (400) or NotFound (404). Parsers run inside the
 * interceptors, so a refused input is journaled like any other refusal; a handler's inputs are judged
 * in SOURCE_ORDER.
 */
export function Input<S extends InputSource, T>(source: S, parse: InputParser<S, T>): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new Error('@Input() decorates a parameter of a route handler');
    const handler = (target as Record<string | symbol, object>)[key];
    const spec: InputSpec = { source, parse: parse as InputParser<InputSource, unknown>, index };
    Reflect.defineMetadata(INPUTS_METADATA, [...(Reflect.getMetadata(INPUTS_METADATA, handler) ?? []), spec], handler);
    CallInputOf(spec, ParseInputPipe)(target, key, index);
  };
}

/** @deprecated `@Input('body', parse)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedBody<T>(parse: (body: unknown) => T): ParameterDecorator {
  return Input('body', (body) => parse(body));
}

/** @deprecated `@Input('query', parse)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedQuery<T>(parse: (query: QueryParameters) => T): ParameterDecorator {
  return Input('query', (query) => parse(query));
}

/** @deprecated `@Input('query', (query, { now }) => …)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedQueryAsOf<T>(parse: (query: QueryParameters, now: Date) => T): ParameterDecorator {
  return Input('query', (query, { now }) => parse(query, now));
}

/** @deprecated `@Input('body', (body, { identityFormat }) => …)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedBodyOfCaller<T>(parse: (body: unknown, format: IdentityFormat) => T): ParameterDecorator {
  return Input('body', (body, { identityFormat }) => parse(body, identityFormat));
}

/** @deprecated `@Input('query', (query, { identityFormat }) => …)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedQueryOfCaller<T>(parse: (query: QueryParameters, format: IdentityFormat) => T): ParameterDecorator {
  return Input('query', (query, { identityFormat }) => parse(query, identityFormat));
}

/** @deprecated `@Input('query', (query, { now, identityFormat }) => …)`; kept while apps/api/src/access/ and tokens/ use it. */
export function ParsedQueryAsOfCaller<T>(parse: (query: QueryParameters, now: Date, format: IdentityFormat) => T): ParameterDecorator {
  return Input('query', (query, { now, identityFormat }) => parse(query, now, identityFormat));
}
