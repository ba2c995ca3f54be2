import { Body, createParamDecorator, ExecutionContext, Inject, Injectable, mixin, PipeTransform, Query } from '@nestjs/common';
import { Clock, DEFAULT_IDENTITY_FORMAT, IdentityFormat, Page, parsePage, ValidationFailed } from '@twofold/domain';
import { CLOCK } from '../config/injection-tokens';

/**
 * The parameters of a query string, read by name in any case (CONTRACT §4: `EventDate` and `eventdate`
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

  /** `offset` and `limit` (CONTRACT §4 paging rules). */
  page(): Page {
    return parsePage(this.get('offset'), this.get('limit'));
  }
}

/** The query of a plain paged list: `offset` and `limit`, nothing else read. */
export function parsePageQuery(query: QueryParameters): Page {
  return query.page();
}

/** Runs an endpoint's parser on its raw input; a refusal is the parser's ValidationFailed (400). */
class ParseInputPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly parse: (raw: unknown) => T) {}

  transform(raw: unknown): T {
    return this.parse(raw);
  }
}

/**
 * The body parsed once, at the edge, into the endpoint's typed command (`parse` judges it with
 * SPEC.md's messages). Parsers run inside the interceptors, so a refused body is journaled like any
 * other refusal.
 */
export function ParsedBody<T>(parse: (body: unknown) => T): ParameterDecorator {
  return Body(new ParseInputPipe(parse));
}

/** The query string parsed once, at the edge, into the endpoint's typed query. */
export function ParsedQuery<T>(parse: (query: QueryParameters) => T): ParameterDecorator {
  return Query(new ParseInputPipe((raw) => parse(QueryParameters.of(raw))));
}

/**
 * A query whose rules depend on the time (`eventDate` must be a past day): its parser also gets the
 * clock's now. The pipe is a class so that Nest injects the clock.
 */
export function ParsedQueryAsOf<T>(parse: (query: QueryParameters, now: Date) => T): ParameterDecorator {
  @Injectable()
  class ParseQueryAsOfPipe implements PipeTransform<unknown, T> {
    constructor(@Inject(CLOCK) private readonly clock: Clock) {}

    transform(raw: unknown): T {
      return parse(QueryParameters.of(raw), this.clock.now());
    }
  }
  return Query(mixin(ParseQueryAsOfPipe));
}

/** The raw body or query of a call, with the identity format of the caller's account (from its principal). */
interface CallerInput {
  raw: unknown;
  identityFormat: IdentityFormat;
}

const callerInput = (source: 'body' | 'query') =>
  createParamDecorator((_: unknown, context: ExecutionContext): CallerInput => {
    const request = context.switchToHttp().getRequest<{ body: unknown; query: unknown; user?: { identityFormat?: IdentityFormat } }>();
    return { raw: request[source], identityFormat: request.user?.identityFormat ?? DEFAULT_IDENTITY_FORMAT };
  });
const CallerBody = callerInput('body');
const CallerQuery = callerInput('query');

/**
 * A body that names users by identity (issue 14): its parser gets the caller's account's identity
 * format, carried by the authenticated principal (no database read), and normalizes every identity it
 * reads with it: `parseUserIdentity` in libs/domain, the one place identities are read from input.
 */
export function ParsedBodyOfCaller<T>(parse: (body: unknown, format: IdentityFormat) => T): ParameterDecorator {
  return CallerBody(
    undefined,
    new ParseInputPipe((input: unknown) => parse((input as CallerInput).raw, (input as CallerInput).identityFormat)),
  );
}

/** A query that names users by identity: as ParsedBodyOfCaller. */
export function ParsedQueryOfCaller<T>(parse: (query: QueryParameters, format: IdentityFormat) => T): ParameterDecorator {
  return CallerQuery(
    undefined,
    new ParseInputPipe((input: unknown) => parse(QueryParameters.of((input as CallerInput).raw), (input as CallerInput).identityFormat)),
  );
}

/** A query that names users by identity and whose rules depend on the time: as ParsedQueryAsOf and ParsedQueryOfCaller. */
export function ParsedQueryAsOfCaller<T>(parse: (query: QueryParameters, now: Date, format: IdentityFormat) => T): ParameterDecorator {
  @Injectable()
  class ParseCallerQueryAsOfPipe implements PipeTransform<unknown, T> {
    constructor(@Inject(CLOCK) private readonly clock: Clock) {}

    transform(input: unknown): T {
      const { raw, identityFormat } = input as CallerInput;
      return parse(QueryParameters.of(raw), this.clock.now(), identityFormat);
    }
  }
  return CallerQuery(undefined, mixin(ParseCallerQueryAsOfPipe));
}
