// `npm run --silent cli -- <command> --json`: builds the CLI when its sources are newer than the
// bundle (build output goes to stderr, stdout carries only the CLI's one JSON object), then runs it.
import { spawnSync } from 'node:child_process';
import { build, bundles, staleBundles } from './bundles.mjs';

if (staleBundles(['cli']).length > 0) {
  const code = await build(['cli'], ['ignore', 2, 2]).done;
  if (code !== 0) process.exit(code);
}
const run = spawnSync(process.execPath, [bundles.cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
