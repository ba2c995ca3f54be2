// `npm test`: lints every project and builds the API and the CLI (the black-box tests run the bundles), then runs every
// project's jest tests in one jest run with one PostgreSQL server (see tools/testing/jest-global-setup.ts),
// and closes with one line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nxEnv } from './nx-env.mjs';

const root = new URL('../..', import.meta.url).pathname;
const env = { ...nxEnv, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' };

// the code is formatted by Prettier (`npm run format`); a file that is not fails here, before anything runs
const format = spawnSync('npx', ['prettier', '--check', '.'], { cwd: root, env, stdio: 'inherit' });
if (format.status !== 0) {
  console.error('npm test: files not formatted by Prettier (run `npm run format`)');
  process.exit(format.status ?? 1);
}

// lint enforces the module boundaries (domain below persistence below journal below the apps); the bundles are what the black-box tests run
const build = spawnSync('npx', ['nx', 'run-many', '-t', 'lint', 'build', '--output-style=stream'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
if (build.status !== 0) {
  console.error('npm test: lint or build failed');
  process.exit(build.status ?? 1);
}

// jest compiles each test file on its own (isolatedModules in every tsconfig.spec.json: a type-checking
// compile per file was most of a cold run's CPU), so the tests' types are checked here, once per project
const specProjects = [
  'libs/otp',
  'libs/domain',
  'libs/journal',
  'libs/persistence',
  'apps/api',
  'apps/cli',
  'apps/console',
  'apps/api-e2e',
  'apps/authenticator',
];
for (const project of specProjects) {
  const typecheck = spawnSync('npx', ['tsc', '--noEmit', '-p', join(project, 'tsconfig.spec.json')], { cwd: root, env, stdio: 'inherit' });
  if (typecheck.status !== 0) {
    console.error(`npm test: the tests of ${project} do not type-check`);
    process.exit(typecheck.status ?? 1);
  }
}

const resultsDir = join(root, 'tmp');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, 'jest-results.json');
rmSync(resultsFile, { force: true });
const jest = spawnSync('npx', ['jest', '--ci', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});

if (existsSync(resultsFile)) {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  const skipped = results.numPendingTests + results.numTodoTests;
  console.log(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
}
process.exit(jest.status ?? 1);
