// `npm start`: runs the built API, building it (and the CLI, which the start-up hint sends the reader
// to next, and the authenticator app the API serves) first only when their sources are newer than the bundles. Stopping any of the processes
// stops all of them: npm forwards SIGTERM/SIGINT to a shell that does not pass them on, and nothing at
// all when it is killed, so this script also watches its parent, and the API watches this script.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { build, bundles, root, staleBundles } from './bundles.mjs';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let current; // the child running now: the build, then the API
let stopping = false;

function stop(signal) {
  if (stopping) return;
  stopping = true;
  // the API handles all three alike; the build just ends
  if (current && current.exitCode === null && current.signalCode === null) current.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  else process.exit(1);
}
for (const signal of STOP_SIGNALS) process.on(signal, () => stop(signal));

/** The parent's pid now (it changes when the parent dies and this process is adopted). */
function parentPid() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // not Linux: the signal forwarding above still works
  }
}
const parent = parentPid();
if (parent !== undefined) {
  setInterval(() => {
    if (parentPid() !== parent) stop('SIGTERM');
  }, 500).unref();
}

const stale = staleBundles(['api', 'cli', 'console', 'authenticator']);
if (stale.length > 0) {
  const building = build(stale, 'inherit');
  current = building.child;
  const code = await building.done;
  if (code !== 0 || stopping) process.exit(code || 1);
}

// the IPC channel is how the API notices that this script is gone, even after a SIGKILL
current = spawn(process.execPath, [bundles.api], { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
current.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
