// `npm run fuzz`: the fuzz properties of apps/api/test/fuzz with many more requests per operation
// (FUZZ_RUNS, default 300) and a fresh seed each time unless FUZZ_SEED is given: `npm test` runs the
// same properties briefly on a fixed seed (docs/decisions/fuzzing.md). Extra arguments go to jest.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { nxEnv } from './nx-env.mjs';

const root = new URL('../..', import.meta.url).pathname;
const env = {
  ...nxEnv,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '300',
  FUZZ_SEED: process.env.FUZZ_SEED ?? String(randomInt(2 ** 31)),
};
console.log(`npm run fuzz: FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS} (set both to replay this run)`);
const started = Date.now();
const jest = spawnSync('npx', ['jest', '-c', 'apps/api/jest.config.cts', 'apps/api/test/fuzz', ...process.argv.slice(2)], {
  cwd: root,
  env,
  stdio: 'inherit',
});
console.log(`npm run fuzz: FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS}, ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(jest.status ?? 1);
