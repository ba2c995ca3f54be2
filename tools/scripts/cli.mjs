// `npm run --silent cli -- <command> --json`: builds the CLI when its sources are newer than the
// bundle (build output goes to stderr, stdout carries only the CLI's one JSON object), then runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { nxEnv } from './nx-env.mjs';

const root = new URL('../..', import.meta.url).pathname;
const bundle = join(root, 'dist/apps/cli/main.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = ['apps/cli/src', 'libs/domain/src', 'libs/journal/src', 'libs/persistence/src'].map((d) => join(root, d));
const stale = !existsSync(bundle) || sources.some((dir) => newestMtime(dir) > statSync(bundle).mtimeMs);
if (stale) {
  const build = spawnSync('npx', ['nx', 'build', 'cli', '--output-style=stream'], { cwd: root, env: nxEnv, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
