import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ACCOUNT_AUTH, RESOURCE_AUTH, TELEGRAM_SECRET_AUTH } from './api-route';
import { referencedModels } from './common.openapi';

const DESCRIPTION = [
  'Twofold, a two-factor authentication service: administrators, users, authenticators, the audit journal,',
  'access requests, and the management API (groups, resources, settings).',
  '',
  'Generated from the code (`npm run openapi` writes `docs/openapi.json`). Input keys are matched',
  'case-insensitively (`Identity`, `identity`); output is camelCase. Every response carries `mf-trace-id`.',
  'Paths match in any case and with a trailing slash. The POST endpoints an integration calls at each',
  'sign-in (`/access/requests`, `/access/requests/ra`, `/ra/challenge`, `/md`, `/token/refresh`) answer',
  'every refusal other than credentials (401), throttling (429), an unreadable body (400) or an oversize',
  'one (413) as 200 with `success: false` (CONTRACT §8.1).',
].join('\n');

/**
 * The OpenAPI 3 document of an application, from its controllers' decorators. The app only needs to be
 * created, not initialised: nothing here touches the database, so `npm run openapi` runs without one.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Twofold API')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .addBasicAuth(
      { type: 'http', scheme: 'basic', description: 'The account\'s API Key as user name and API Secret as password ("API settings").' },
      ACCOUNT_AUTH,
    )
    .addBasicAuth(
      { type: 'http', scheme: 'basic', description: "A resource's API key as user name and API secret as password (`POST /resources`)." },
      RESOURCE_AUTH,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Telegram-Bot-Api-Secret-Token',
        description: "TELEGRAM_WEBHOOK_SECRET, as the CLI registered it with Telegram (`telegram set-webhook`): for Telegram's calls only.",
      },
      TELEGRAM_SECRET_AUTH,
    )
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: referencedModels(),
    // `list` and `list_v1` rather than Nest's `list[0]`, `list[1]_1` for a route with a neutral and a /v1 path
    operationIdFactory: (controller, method, version) =>
      `${controller}_${method.replace(/\[\d+\]$/, '')}${version ? `_${version.replace(/^v?/, 'v')}` : ''}`,
  });
  return withoutUnusedSchemas(document);
}

/**
 * Nest adds a schema for every class it meets (a `@Body()` parameter's, the extra models of every
 * controller); the document keeps those its paths refer to.
 */
function withoutUnusedSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = value.replace('#/components/schemas/', '');
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(value);
      }
    }
  };
  visit(document.paths);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}
