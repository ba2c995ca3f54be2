/**
 * CPU instructions per answer, counted by valgrind's callgrind (`npm run bench:api -- --instructions`).
 *
 * The rates and CPU milliseconds of the load runs depend on what else the machine is doing: on a
 * 2-core machine shared with test runs the same build moved by ±30 % between runs, and an A/B pair of
 * one change could not be trusted. Instructions executed are the same for the same build, inputs and
 * environment whatever else runs beside them, so a change that removes work shows as fewer
 * instructions per answer even on a busy machine. They are not time: a cache miss or a system call
 * costs more than its instruction count says, and PostgreSQL's own work is not in them (the statements
 * per call are counted in apps/api/test/performance/round-trips.spec.ts). Both figures together say
 * what a change did; the load runs on a quiet machine say what it is worth.
 *
 * The server runs under `valgrind --tool=callgrind --instr-atstart=no` (about 5× slower while not
 * instrumented, 50× while instrumented); instrumentation is switched on only for the counted requests,
 * sent one at a time, after a warm-up that lets V8 optimise the hot code as it would under load.
 * Every thread of the process is counted: the garbage collector's helpers work for the requests too.
 */
import { spawnSync } from 'node:child_process';

export const VALGRIND = '/usr/bin/valgrind';

/** The command that runs `command` under callgrind with instrumentation off until switched on. */
export function underCallgrind(command: string[]): string[] {
  return [VALGRIND, '--tool=callgrind', '--instr-atstart=no', '--callgrind-out-file=/dev/null', '--trace-children=no', ...command];
}

function callgrindControl(pid: number, ...options: string[]): string {
  const run = spawnSync('callgrind_control', [...options, String(pid)], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`callgrind_control ${options.join(' ')} ${pid} failed: ${run.stderr || run.stdout}`);
  return run.stdout;
}

export function instrumentation(pid: number, on: boolean): void {
  callgrindControl(pid, `--instr=${on ? 'on' : 'off'}`);
}

export function zeroCounts(pid: number): void {
  callgrindControl(pid, '--zero');
}

/**
 * Instructions executed since the last zero: `callgrind_control -e` prints a line `Th <n>  <count>`
 * per thread (the counts with thousands separators). `main` is the first thread, the event loop's,
 * where the requests are handled; `all` adds V8's helpers (concurrent marking, background compilation),
 * whose work lands in whichever window it happens to run in, so it varies more from run to run.
 */
export function instructionsSinceZero(pid: number): { main: number; all: number } {
  const out = callgrindControl(pid, '-e');
  let all = 0;
  let main: number | undefined;
  for (const line of out.split('\n')) {
    const match = /^\s*Th\s+(\d+)\s+([\d,]+)\s*$/.exec(line);
    if (!match) continue;
    const count = Number(match[2].replace(/,/g, ''));
    all += count;
    if (match[1] === '1') main = count;
  }
  if (main === undefined) throw new Error(`callgrind_control -e ${pid} printed no count of thread 1:\n${out}`);
  return { main, all };
}
