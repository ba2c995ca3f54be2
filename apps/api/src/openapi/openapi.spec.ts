import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ManualClock } from '@twofold/domain';
import { createTestDatabase, TestDatabase } from '@twofold/persistence/testing';
import request from 'supertest';
import { createApp, initApp } from '../app/create-app';
import { AccountAuthGuard, ResourceAuthGuard } from '../auth/auth.guards';
import { TEST_NOW, testConfig } from '../../test/testing/test-app';
import { ACCESS_TOKEN_AUTH, ACCOUNT_AUTH, RESOURCE_AUTH, TELEGRAM_SECRET_AUTH } from './api-route';
import { TelegramWebhookGuard } from '../telegram/telegram-webhook.guard';
import { AccessTokenBearerGuard } from '../self-service/access-token-bearer.guard';
import { DOCS_PATH, OPENAPI_JSON_PATH } from './api-docs';
import { generateOpenApiFileText, OPENAPI_FILE } from '../app/document-app';
import { examplesOf, OpenApiDocument, operationsOf, schemaValidator } from './openapi.testing';

const ROOT = join(__dirname, '../../../..');

/** `/v2/users/:id/phone` → `/v2/users/{id}/phone`, the document's spelling of a route. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The security requirement a guard stands for; no guard: none. */
function expectedSecurity(guards: unknown[]): Record<string, string[]>[] | undefined {
  if (guards.includes(AccountAuthGuard)) return [{ [ACCOUNT_AUTH]: [] }];
  if (guards.includes(ResourceAuthGuard)) return [{ [RESOURCE_AUTH]: [] }];
  if (guards.includes(TelegramWebhookGuard)) return [{ [TELEGRAM_SECRET_AUTH]: [] }];
  if (guards.includes(AccessTokenBearerGuard)) return [{ [ACCESS_TOKEN_AUTH]: [] }];
  return undefined;
}

describe('OpenAPI document', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  let document: OpenApiDocument;
  const routes: { method: string; path: string }[] = [];
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createApp({ config: testConfig(database.url), dataSource: database.dataSource, clock: new ManualClock(TEST_NOW) });
    // every route as Fastify registers it, Nest's and ours alike, collected before `init` registers them
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) routes.push({ method, path: route.url });
      });
    await initApp(app);
    const served = await request(app.getHttpServer()).get(OPENAPI_JSON_PATH);
    expect(served.status).toBe(200);
    document = served.body as OpenApiDocument;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    process.stdout.write(`OpenAPI coverage: ${JSON.stringify(figures)}\n`);
  });

  it('documents every route of the app with its method (HEAD aside, which Fastify adds to each GET)', () => {
    // the browser's tab icon is not part of the API
    const apiRoutes = routes.filter(
      (route) => route.method !== 'HEAD' && !route.path.toLowerCase().startsWith(DOCS_PATH) && route.path !== '/favicon.ico',
    );
    const documented = new Set(operationsOf(document).map(({ method, path }) => `${method} ${path.toLowerCase()}`));
    const missing = apiRoutes
      .map(({ method, path }) => `${method} ${openApiPath(path).toLowerCase()}`)
      .filter((key) => !documented.has(key));
    figures['routesInApp'] = new Set(apiRoutes.map(({ method, path }) => `${method} ${path.toLowerCase()}`)).size;
    figures['operationsDocumented'] = documented.size;
    expect(missing).toEqual([]);
    // and nothing documented that the app does not answer
    expect(figures['operationsDocumented']).toBe(figures['routesInApp']);
  });

  it('gives every example a value its schema accepts', () => {
    const compile = schemaValidator(document);
    const examples = examplesOf(document);
    const invalid = examples
      .filter((example) => example.schema !== undefined)
      .flatMap(({ where, schema, value }) => {
        const validate = compile(schema);
        return validate(value) ? [] : [`${where}: ${JSON.stringify(validate.errors)}`];
      });
    figures['examples'] = examples.length;
    figures['examplesValidated'] = examples.length - invalid.length;
    expect(examples.filter((example) => example.schema === undefined).map((example) => example.where)).toEqual([]);
    expect(invalid).toEqual([]);
  });

  it('gives every answer with a body, and every error, an example', () => {
    const missing = operationsOf(document).flatMap(({ method, path, operation }) =>
      Object.entries(operation.responses)
        .filter(([status, response]) => status !== '200' || response.content)
        .filter(([, response]) => !Object.values(response.content ?? {}).some((media) => 'example' in media || media.examples))
        .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents a 404 wherever a path names a record, and a 400 wherever the caller sends a body or a query', () => {
    const missing = operationsOf(document).flatMap(({ method, path, operation }) => {
      const statuses = Object.keys(operation.responses);
      const takesInput = Boolean(operation.requestBody) || (operation.parameters ?? []).some((parameter) => parameter.in === 'query');
      return [
        ...(path.includes('{') && !statuses.includes('404') ? [`${method} ${path} 404`] : []),
        ...(takesInput && !statuses.includes('400') ? [`${method} ${path} 400`] : []),
      ];
    });
    expect(missing).toEqual([]);
  });

  it("puts on each operation the security scheme of its controller's guard, and a 401 exactly where there is one", () => {
    const controllers = new Map<string, Type<unknown>>();
    for (const module of app.get(ModulesContainer).values())
      for (const wrapper of module.controllers.values()) controllers.set(wrapper.name as string, wrapper.metatype as Type<unknown>);
    const mismatches: string[] = [];
    let checked = 0;
    for (const { method, path, operation } of operationsOf(document)) {
      const [controllerName, handlerName] = operation.operationId.replace(/_v\d+$/, '').split('_');
      const controller = controllers.get(controllerName);
      const handler = controller?.prototype[handlerName as keyof object];
      if (!controller || !handler) {
        mismatches.push(`${method} ${path}: no handler ${operation.operationId}`);
        continue;
      }
      const guards = [
        ...(Reflect.getMetadata(GUARDS_METADATA, controller) ?? []),
        ...(Reflect.getMetadata(GUARDS_METADATA, handler) ?? []),
      ];
      const expected = expectedSecurity(guards);
      if (JSON.stringify(operation.security) !== JSON.stringify(expected))
        mismatches.push(`${method} ${path}: security ${JSON.stringify(operation.security)}, guard wants ${JSON.stringify(expected)}`);
      if (Boolean(operation.responses['401']) !== Boolean(expected))
        mismatches.push(`${method} ${path}: 401 documented without a guard or missing`);
      checked += 1;
    }
    figures['securityChecks'] = checked;
    expect(mismatches).toEqual([]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(
      [ACCESS_TOKEN_AUTH, ACCOUNT_AUTH, RESOURCE_AUTH, TELEGRAM_SECRET_AUTH].sort(),
    );
  });

  it(`is committed as ${OPENAPI_FILE}, as \`npm run openapi\` writes it (run it after changing a route)`, async () => {
    const committed = readFileSync(join(ROOT, OPENAPI_FILE), 'utf8');
    expect(await generateOpenApiFileText()).toBe(committed);
    expect(document).toEqual(JSON.parse(committed));
  });

  it('serves Swagger UI at /docs without credentials, under a CSP that allows no inline script', async () => {
    const page = await request(app.getHttpServer()).get(DOCS_PATH);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe/);
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-init.js']) {
      const answer = await request(app.getHttpServer()).get(`${DOCS_PATH}/${asset}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /^application\/javascript/);
    }
  });

  it('shows no secret: the only key and secret values in the document are the fake ones of the examples', () => {
    const text = JSON.stringify(document);
    const secrets = [...text.matchAll(/"(apiKey|apiSecret|AccessToken|Key)":"([^"]*)"/g)].map((match) => match[2]);
    expect(secrets.every((value) => /EXAMPLE|^[0-9a-f]{32}$|^eyJ/.test(value))).toBe(true);
    expect(text).not.toContain(database.url);
  });
});

describe('API_DOCS=false', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createApp({
      config: testConfig(database.url, { apiDocs: false }),
      dataSource: database.dataSource,
      clock: new ManualClock(TEST_NOW),
    });
    await initApp(app);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('serves neither the UI nor the document: /docs is an unknown path', async () => {
    for (const path of [DOCS_PATH, OPENAPI_JSON_PATH]) {
      const answer = await request(app.getHttpServer()).get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: `Cannot GET ${path}`, traceId: expect.any(String) });
    }
  });
});
