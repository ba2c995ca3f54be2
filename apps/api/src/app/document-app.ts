import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { systemClock } from '@twofold/domain';
import { DataSource } from 'typeorm';
import { createApp } from './create-app';
import { buildOpenApiDocument } from '../openapi/openapi-document';
import { DEFAULT_DATABASE_CONNECT_TIMEOUT_MS, DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../config/app-config';

/** Where `npm run openapi` writes the document, relative to the repository root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/**
 * The application as `createApp` builds it, but never initialised: Nest has read every controller's
 * decorators, no provider has started, and the DataSource is never connected. That is all the document
 * needs, so it is generated without a database.
 */
export async function createDocumentApp(): Promise<NestFastifyApplication> {
  return createApp({
    config: {
      port: 0,
      publicUrl: 'http://localhost',
      accessUrl: 'http://localhost/access',
      tokenIssuer: 'http://localhost',
      encryptionKey: randomBytes(32),
      mailFrom: 'Twofold <no-reply@localhost>',
      logLevel: 'silent',
      dataDir: join(tmpdir(), 'twofold-openapi'),
      apiDocs: false,
      databaseTimeouts: {
        connectTimeoutMs: DEFAULT_DATABASE_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS,
      },
    },
    dataSource: new DataSource({ type: 'postgres' }),
    clock: systemClock,
  });
}

/** The committed file's exact text: stable key order as built, two-space indentation, a final newline. */
export function openApiFileText(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The document of the app's current code, as `docs/openapi.json` must hold it. */
export async function generateOpenApiFileText(): Promise<string> {
  const app = await createDocumentApp();
  try {
    return openApiFileText(buildOpenApiDocument(app));
  } finally {
    await app.close();
  }
}
