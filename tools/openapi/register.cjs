// Lets plain node run the API's TypeScript sources: ts-node compiles them (types are checked by
// `tsc` and jest, not here) and the workspace's path aliases (`@twofold/*`) resolve as in tsconfig.base.json.
const { join } = require('node:path');
const root = join(__dirname, '../..');
process.env.TS_NODE_PROJECT ??= join(root, 'apps/api/tsconfig.app.json');
process.env.TS_NODE_TRANSPILE_ONLY ??= 'true';
require('ts-node/register');
const { compilerOptions } = require(join(root, 'tsconfig.base.json'));
require('tsconfig-paths').register({ baseUrl: root, paths: compilerOptions.paths });
