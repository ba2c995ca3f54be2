// Whether the bundles in dist/ are older than what they are built from, so that `npm start` and
// `npm run cli` run them straight away when nothing changed (Nx alone takes seconds to find that out).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { nxEnv } from './nx-env.mjs';

export const root = new URL('../..', import.meta.url).pathname;

export const bundles = {
  api: join(root, 'dist/apps/api/main.js'),
  cli: join(root, 'dist/apps/cli/main.js'),
  // the administrators' console the API serves at $PUBLIC_URL/console/ (its page names the hashed script)
  console: join(root, 'dist/apps/console/index.html'),
  // the authenticator app the API serves at $ACCESS_URL/app/ (its page names the hashed script)
  authenticator: join(root, 'dist/apps/authenticator/index.html'),
};

// what every bundle is built from besides its own app folder: the libraries, the compiler settings
// and the dependencies
const sharedInputs = ['libs', 'tsconfig.base.json', 'package.json', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.spec.ts') ? 0 : stat.mtimeMs; // tests are not bundled
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** The projects among `projects` whose bundle is missing or older than one of its sources. */
export function staleBundles(projects) {
  const shared = Math.max(...sharedInputs.map((input) => newestMtime(join(root, input))));
  return projects.filter((project) => {
    const bundle = bundles[project];
    if (!existsSync(bundle)) return true;
    const built = statSync(bundle).mtimeMs;
    return Math.max(shared, newestMtime(join(root, 'apps', project))) > built;
  });
}

/**
 * Builds `projects` with Nx, its output on `stdio` (stderr for the CLI, whose stdout carries only its
 * answer). Resolves with the exit code; the child is returned so a signal can stop it.
 */
export function build(projects, stdio) {
  const child = spawn('npx', ['nx', 'run-many', '-t', 'build', `--projects=${projects.join(',')}`, '--output-style=stream'], {
    cwd: root,
    env: nxEnv,
    stdio,
  });
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      // Nx leaves a bundle that already matches its cache untouched, so a source touched without a
      // change (a checkout back and forth) would look newer than the bundle at every start
      if (code === 0)
        for (const project of projects) if (existsSync(bundles[project])) utimesSync(bundles[project], new Date(), new Date());
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
  return { child, done };
}
