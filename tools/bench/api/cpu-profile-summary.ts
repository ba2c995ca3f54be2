/**
 * The top of a V8 CPU profile (`node --cpu-prof`), as `npm run bench:api -- --profile` prints it for
 * the Twofold API: self time per package (node_modules/<name>, the API's own bundle, Node's internals,
 * the garbage collector) and per function. Self time only: where the CPU was, not who asked for it.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a function lives: the npm package, the API bundle, Node itself or one of V8's pseudo-frames. */
export function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1];
  if (url.startsWith('node:')) return 'node internals';
  if (url.includes('/dist/apps/api/')) return 'twofold (apps/api bundle)';
  return url.replace(/^file:\/\//, '');
}

export function summariseCpuProfile(path: string, top = 20): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // self time per node: each sample's delta is the time spent in the node it names
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const total = [...selfMs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfMs.entries()].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, ms]) => a + ms, 0);
  const busy = total - idle;

  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, ms] of selfMs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    const owner = ownerOf(frame.url, frame.functionName);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
    const name = `${frame.functionName || '(anonymous)'}  ${owner}${frame.url && !frame.url.includes('node_modules') && !frame.url.startsWith('node:') ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const percent = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;
  const rows = (entries: Map<string, number>) =>
    [...entries.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, ms]) => `  ${percent(ms)}  ${name}`);
  return [
    `profile ${path}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (${((100 * busy) / total).toFixed(0)} %); shares of the busy time`,
    'by owner (self time):',
    ...rows(byOwner),
    'by function (self time):',
    ...rows(byFunction),
  ].join('\n');
}
