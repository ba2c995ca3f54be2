// `npm run openapi`: writes the API's OpenAPI document to docs/openapi.json, generated from the
// controllers' decorators without a database (apps/api/src/app/document-app.ts).
// `openapi.spec.ts` fails while the committed file differs from what this writes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApiFileText, OPENAPI_FILE } from '../../apps/api/src/app/document-app';

async function main(): Promise<void> {
  const text = await generateOpenApiFileText();
  writeFileSync(join(__dirname, '../..', OPENAPI_FILE), text);
  const document = JSON.parse(text) as { paths: Record<string, object> };
  const operations = Object.values(document.paths).reduce((sum, path) => sum + Object.keys(path).length, 0);
  process.stdout.write(`${OPENAPI_FILE}: ${Object.keys(document.paths).length} paths, ${operations} operations\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`openapi: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
