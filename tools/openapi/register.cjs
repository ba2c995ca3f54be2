// Lets plain node run the API's TypeScript sources: ts-node compiles them without checking types (`npx tsc -p
// tools/openapi/tsconfig.json` and jest check them) and the path aliases (`@twofold/*`) resolve as in tsconfig.base.json.
const { join } = require('node:path');
const root = join(__dirname, '../..');
process.env.TS_NODE_PROJECT ??= join(__dirname, 'tsconfig.json');
process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
require('ts-node/register');
const { compilerOptions } = require(join(root, 'tsconfig.base.json'));
require('tsconfig-paths').register({ baseUrl: root, paths: compilerOptions.paths });
