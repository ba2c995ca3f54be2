import { ArgumentsHost, CanActivate, Catch, Controller, ExceptionFilter, ExecutionContext, Module, Post, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DEFAULT_IDENTITY_FORMAT, DomainError, ManualClock, NotFound, ValidationFailed } from '@twofold/domain';
import { CLOCK } from '../config/injection-tokens';
import { Input, InputContext, PathParameters, QueryParameters } from './parsed-input';

describe('QueryParameters (parameter names in any case)', () => {
  it('reads a parameter by its name in any case', () => {
    const query = QueryParameters.of({ EventDate: '2026-05-01', LIMIT: '10' });
    expect(query.get('eventDate')).toBe('2026-05-01');
    expect(query.single('eventdate')).toBe('2026-05-01');
    expect(query.page()).toEqual({ offset: 0, limit: 10 });
  });

  it('gathers a parameter repeated in any spellings, and refuses it where it is meant once', () => {
    const query = QueryParameters.of({ action: ['Create', 'Update'], ACTION: 'Delete', identity: ['a', 'b'] });
    expect(query.all('Action')).toEqual(['Create', 'Update', 'Delete']);
    expect(() => query.single('identity')).toThrow(new ValidationFailed('identity must be given once.'));
    expect(() => QueryParameters.of({ offset: '1', Offset: '2' }).page()).toThrow(new ValidationFailed('offset must be given once.'));
  });

  it('reads an absent parameter as undefined and no list', () => {
    const query = QueryParameters.of({});
    expect(query.single('identity')).toBeUndefined();
    expect(query.all('action')).toEqual([]);
    expect(QueryParameters.of(undefined).get('identity')).toBeUndefined();
  });
});

/** A principal with the identity format the test names in a header, as the auth guards put one on request.user. */
class PrincipalFromHeader implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; user?: object }>();
    const format = request.headers['x-identity-format'];
    if (format) request.user = { identityFormat: format };
    return true;
  }
}

/** Domain refusals as status and message, as ApiExceptionFilter answers them. */
@Catch()
class RefusalFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const status = error instanceof DomainError ? (error.code === 'NOT_FOUND' ? 404 : 400) : 500;
    host
      .switchToHttp()
      .getResponse<{ status(code: number): { send(body: unknown): void } }>()
      .status(status)
      .send({ message: error instanceof Error ? error.message : String(error) });
  }
}

const NOW = new Date('2026-05-20T10:00:00.000Z');
const calls: string[] = [];

/** Parsers that record their call and refuse when the input asks them to. */
const bodyOf = (body: unknown) => {
  calls.push('body');
  if ((body as { refuse?: boolean } | undefined)?.refuse) throw new ValidationFailed('body refused');
  return body;
};
const pathOf = (path: PathParameters) => {
  calls.push('path');
  if (path['id'] === 'bad') throw new NotFound('Thing');
  return path['id'];
};

@Controller('things')
@UseGuards(PrincipalFromHeader)
class ThingsController {
  @Post(':id/seen')
  seen(
    @Input('path', (path) => path['id']) id: string | undefined,
    @Input('query', (query) => query.single('filter')) filter: string | undefined,
    @Input('body', (body, context) => ({ body, context })) input: { body: unknown; context: InputContext },
  ) {
    return { id, filter, body: input.body, identityFormat: input.context.identityFormat, now: input.context.now.toISOString() };
  }

  /** the path declared first */
  @Post(':id/path-first')
  pathFirst(@Input('path', pathOf) id: unknown, @Input('body', bodyOf) body: unknown) {
    return { id, body };
  }

  /** the body declared first */
  @Post(':id/body-first')
  bodyFirst(@Input('body', bodyOf) body: unknown, @Input('path', pathOf) id: unknown) {
    return { id, body };
  }
}

@Module({ controllers: [ThingsController], providers: [{ provide: CLOCK, useValue: new ManualClock(NOW) }] })
class ThingsModule {}

describe('@Input: each input parsed at the edge, with the context of the call', () => {
  let app: NestFastifyApplication;
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    app.getHttpAdapter().getInstance().inject({ method: 'POST', url, payload, headers });

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ThingsModule, new FastifyAdapter(), { logger: false });
    app.useGlobalFilters(new RefusalFilter());
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(() => app.close());

  beforeEach(() => {
    calls.length = 0;
  });

  it("gives each parser its source, the caller's identity format and the clock's now", async () => {
    const answer = await post('/things/t-1/seen?FILTER=open', { a: 1 }, { 'x-identity-format': 'Login' });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toEqual({ id: 't-1', filter: 'open', body: { a: 1 }, identityFormat: 'Login', now: NOW.toISOString() });
  });

  it('gives a call without a principal the default identity format', async () => {
    expect((await post('/things/t-1/seen', {})).json()).toMatchObject({ identityFormat: DEFAULT_IDENTITY_FORMAT });
  });

  it('judges the body before the path whatever the order they are declared in, and parses each input once', async () => {
    for (const handler of ['path-first', 'body-first']) {
      calls.length = 0;
      const both = await post(`/things/bad/${handler}`, { refuse: true });
      expect([handler, both.statusCode, both.json()]).toEqual([handler, 400, { message: 'body refused' }]);
      expect(calls).toEqual(['body']);
      calls.length = 0;
      const path = await post(`/things/bad/${handler}`, {});
      expect([handler, path.statusCode, path.json()]).toEqual([handler, 404, { message: 'Thing not found.' }]);
      calls.length = 0;
      expect((await post(`/things/good/${handler}`, { x: 1 })).json()).toEqual({ id: 'good', body: { x: 1 } });
      expect(calls).toEqual(['body', 'path']);
    }
  });
});
