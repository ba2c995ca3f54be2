import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, freePort, requireBundles, ROOT } from './processes';

/**
 * `npm start` as a newcomer runs it, on the embedded PostgreSQL: npm, the shell npm runs the script
 * in, tools/scripts/start.mjs, the API and PostgreSQL. Whichever of them is stopped, none may stay
 * behind serving the port or holding the data directory.
 */

interface Proc {
  pid: number;
  ppid: number;
  state: string;
  argv: string[];
  cmdline: string;
}

function readProcesses(): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      found.push({ pid: Number(name), ppid: Number(ppid), state, argv, cmdline: argv.join(' ') });
    } catch {
      // ended while we looked
    }
  }
  return found;
}

function descendants(rootPid: number, all: Proc[]): Proc[] {
  const tree: Proc[] = [];
  const parents = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const proc of all) {
      if (!parents.has(proc.pid) && parents.has(proc.ppid)) {
        parents.add(proc.pid);
        tree.push(proc);
        grew = true;
      }
    }
  }
  return tree;
}

/** A zombie has ended; it only waits for whoever adopted it to collect its status. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function poll<T>(what: string | (() => string), probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`${typeof what === 'string' ? what : what()} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Started {
  npm: ChildProcess;
  port: number;
  output: () => string;
  /** every process of the tree once the API answered, by role */
  roles: Partial<Record<'npm' | 'startScript' | 'api' | 'postgres', number>>;
  all: number[];
}

const dataDir = mkdtempSync(join(tmpdir(), 'twofold-stop-'));
const started: Started[] = [];

beforeAll(() => {
  if (process.platform !== 'linux') throw new Error('these tests read /proc');
  requireBundles();
});

/** What a failed test left running must not be joined by the next one. */
function killLeftovers(): void {
  for (const run of started.splice(0)) for (const pid of run.all) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const proc of readProcesses()) if (proc.state !== 'Z' && proc.cmdline.includes(dataDir)) process.kill(proc.pid, 'SIGKILL');
  rmSync(join(dataDir, 'postgres/cluster/postmaster.pid'), { force: true });
}

afterEach(killLeftovers);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function npmStart(): Promise<Started> {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: cleanEnv({ PORT: String(port), TWOFOLD_DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += chunk));
  npm.stderr?.on('data', (chunk) => (output += chunk));
  await poll(
    () => `the API did not answer /ping:\n${output}`,
    async () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}:\n${output}`);
      return (
        (await fetch(`http://127.0.0.1:${port}/ping`)
          .then((r) => r.ok)
          .catch(() => false)) || undefined
      );
    },
    90_000,
  );
  const run: Started = { npm, port, output: () => output, roles: { npm: npm.pid as number }, all: [npm.pid as number] };
  started.push(run);
  const tree = descendants(npm.pid as number, readProcesses());
  run.all.push(...tree.map((p) => p.pid));
  const one = (what: string, test: (p: Proc) => boolean): number => {
    const matches = tree.filter(test);
    if (matches.length !== 1) throw new Error(`expected one ${what} under npm, found ${JSON.stringify(tree, null, 1)}`);
    return matches[0].pid;
  };
  const api = one('API', (p) => p.argv[1]?.endsWith('dist/apps/api/main.js'));
  run.roles = {
    npm: npm.pid as number,
    startScript: one('start script', (p) => p.argv[1] === 'tools/scripts/start.mjs'),
    api,
    postgres: one('postmaster', (p) => p.ppid === api && p.argv[0].endsWith('/postgres')),
  };
  return run;
}

async function expectAllStopped(run: Started): Promise<void> {
  await poll('the port still answered', async () => ((await portOpen(run.port)) ? undefined : true), 60_000);
  const remaining = await poll(
    'processes of npm start remained',
    () => {
      const left = run.all.filter(alive);
      // adopted by init, a process no longer shows under npm: find it by its data directory too
      const holding = readProcesses().filter((p) => p.state !== 'Z' && p.cmdline.includes(dataDir));
      return left.length === 0 && holding.length === 0 ? [] : undefined;
    },
    60_000,
  ).catch(() => readProcesses().filter((p) => run.all.includes(p.pid) || p.cmdline.includes(dataDir)));
  expect(remaining).toEqual([]);
}

describe('stopping npm start stops the start script, the API and the embedded PostgreSQL', () => {
  it.each([
    ['npm', 'SIGTERM'],
    ['npm', 'SIGINT'],
    ['npm', 'SIGHUP'],
    ['startScript', 'SIGKILL'],
    ['api', 'SIGHUP'],
    ['postgres', 'SIGINT'],
  ] as const)('%s stopped by %s', async (role, signal) => {
    const run = await npmStart();
    expect(existsSync(join(dataDir, 'postgres/cluster/postmaster.pid'))).toBe(true);
    process.kill(run.roles[role] as number, signal);
    await expectAllStopped(run);
    // PostgreSQL removes its pid file on a clean stop; one left behind means it was killed
    expect(existsSync(join(dataDir, 'postgres/cluster/postmaster.pid'))).toBe(false);
  });
});
