import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyReply } from 'fastify';
import { buildOpenApiDocument } from './openapi-document';

export const DOCS_PATH = '/docs';
export const OPENAPI_JSON_PATH = `${DOCS_PATH}/openapi.json`;

/** The Swagger UI files we serve, from swagger-ui-dist (the version @nestjs/swagger pins). */
const UI_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Scripts only from ourselves, so the page runs no inline script (the UI's options are a file, below);
 * inline styles are allowed because the UI sets `style` attributes. "Try it out" calls the API on the
 * same origin only.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twofold API</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/swagger-ui-init.js"></script>
</body>
</html>
`;

// credentials typed into "Authorize" stay in the page's memory: persistAuthorization would keep them in localStorage
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_JSON_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * `/docs` (Swagger UI) and `/docs/openapi.json`, without credentials. Plain Fastify routes rather than
 * `SwaggerModule.setup`: on Fastify that needs `@fastify/static` and serves the whole swagger-ui-dist
 * folder; these are the four files the page uses, under a CSP of their own. The document is built on
 * the first request, from the same code as `npm run openapi`.
 */
export function serveApiDocs(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  let documentJson: string | undefined;
  const assets = new Map<string, Buffer>();

  const html = (reply: FastifyReply, body: string) => {
    reply.header('Content-Security-Policy', DOCS_CSP);
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    return reply.type('text/html; charset=utf-8').send(body);
  };

  fastify.get(DOCS_PATH, (_req, reply) => html(reply, PAGE));
  fastify.get(`${DOCS_PATH}/index.html`, (_req, reply) => html(reply, PAGE));
  fastify.get(OPENAPI_JSON_PATH, (_req, reply) => {
    documentJson ??= JSON.stringify(buildOpenApiDocument(app));
    return reply.type('application/json; charset=utf-8').send(documentJson);
  });
  fastify.get(`${DOCS_PATH}/swagger-ui-init.js`, (_req, reply) => reply.type('application/javascript; charset=utf-8').send(INIT_SCRIPT));
  for (const [file, type] of Object.entries(UI_ASSETS)) {
    fastify.get(`${DOCS_PATH}/${file}`, async (_req, reply) => {
      let content = assets.get(file);
      if (!content) {
        content = await readFile(join(getAbsoluteFSPath(), file));
        assets.set(file, content);
      }
      return reply.type(type).send(content);
    });
  }
}
