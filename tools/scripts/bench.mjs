// `npm run bench`: every benchmark of the repository, one after another, each printing its figures
// side by side with the baselines it is measured against in the same run.
import { spawnSync } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;
const benchmarks = [
  { name: 'otp', command: ['npx', 'ts-node', 'tools/bench/otp/bench-otp.ts'] },
  { name: 'api', command: ['npx', 'ts-node', 'tools/bench/api/bench-api.ts'] },
  { name: 'approval waits', command: ['npx', 'ts-node', 'tools/bench/api/bench-approval-waits.ts'] },
];

let failed = 0;
for (const bench of benchmarks) {
  console.log(`\n== ${bench.name} ==`);
  const run = spawnSync(bench.command[0], bench.command.slice(1), { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
