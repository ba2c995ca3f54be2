#!/usr/bin/env node
// The import graph of apps/api/src, apps/api/test and libs/*/src: its cycles, and the imports that run up the layering.
//
//   node tools/scripts/import-graph.mjs            lists both, then one summary line
//   node tools/scripts/import-graph.mjs --json     the same as one JSON object
//   node tools/scripts/import-graph.mjs --check    exits 1 when there is a cycle or an upward import
//
// Plain Node on purpose (no dependency): imports are read with regular expressions from the start of
// lines (`import … from '…'`, `export … from '…'`, `import('…')`, `require('…')`), relative paths and the
// `@twofold/*` aliases of tsconfig.base.json resolved to files. Type-only imports count: a cycle of types
// is still two modules that cannot be understood, moved or published apart.
//
// The layering, lowest first (an import may go down or sideways, never up):
//   libs        otp, domain < persistence < journal < apps
//   apps/api    config < http, pages < openapi, mail, auth (the platform every feature stands on)
//               < the features (one folder per API area, each with its controllers; sideways allowed)
//               < app/ (the composition root) < test-only code (*.spec.ts, everything under apps/api/test)
//               (*.testing.ts files are test-only wherever they sit)
//   one folder  commands, dto, openapi, journal, view, … < *.service.ts < *.controller.ts < *.module.ts
//               (inside one folder of apps/api, app/ aside)
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_ROOTS = ['apps/api/src', 'apps/api/test', ...readdirSync(join(ROOT, 'libs')).map((lib) => `libs/${lib}/src`)];

const LIB_RANK = { otp: 0, domain: 0, persistence: 1, journal: 2 };
const APP_RANK = 3;

/** apps/api/src/<folder>: the platform below the features, the composition root above them (apps/api/test above all). */
const API_FOLDER_RANK = {
  config: 0,
  http: 1,
  pages: 1,
  openapi: 2,
  mail: 2,
  auth: 2,
  app: 4,
};
const FEATURE_RANK = 3;
const TEST_ONLY_RANK = 5;
const FOLDER_NAMES = { 0: 'config', 1: 'platform', 2: 'platform', 3: 'feature', 4: 'composition root', 5: 'test-only' };

/** A file's role inside its folder, by the name's last part before `.ts`. */
function roleRank(file) {
  if (/\.module\.ts$/.test(file)) return 3;
  if (/\.controller\.ts$/.test(file)) return 2;
  if (/\.service\.ts$/.test(file)) return 1;
  return 0;
}
const ROLE_NAMES = ['commands/dto/helpers', 'service', 'controller', 'module'];

const rel = (file) => relative(ROOT, file).split(sep).join('/');

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function aliases() {
  const config = JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8'));
  return Object.entries(config.compilerOptions?.paths ?? {}).map(([name, [target]]) => [name, join(ROOT, target)]);
}
const ALIASES = aliases();

function resolveImport(from, specifier) {
  if (specifier.startsWith('.')) {
    const base = resolve(dirname(from), specifier);
    for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return undefined;
  }
  return ALIASES.find(([name]) => name === specifier)?.[1];
}

const STATIC_IMPORT = /^\s*(import|export)(\s+type)?\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE_IMPORT = /^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const match of text.matchAll(STATIC_IMPORT)) found.push({ specifier: match[3], typeOnly: Boolean(match[2]) });
  for (const match of text.matchAll(BARE_IMPORT)) found.push({ specifier: match[1], typeOnly: false });
  for (const match of text.matchAll(DYNAMIC_IMPORT)) found.push({ specifier: match[1], typeOnly: false });
  return found;
}

/** Where a file sits in the layering: its rank, and a name for messages. */
function layerOf(file) {
  const path = rel(file);
  const lib = /^libs\/([^/]+)\//.exec(path);
  if (lib) return { rank: LIB_RANK[lib[1]] ?? APP_RANK, name: `libs/${lib[1]}`, scope: 'libs' };
  if (/\.(spec|testing)\.ts$/.test(path) || path.startsWith('apps/api/test/'))
    return { rank: TEST_ONLY_RANK, name: 'test-only file', scope: 'api' };
  const folder = /^apps\/api\/src\/([^/]+)\//.exec(path)?.[1];
  if (!folder) return { rank: API_FOLDER_RANK.app, name: 'composition root', scope: 'api' }; // main.ts
  const rank = API_FOLDER_RANK[folder] ?? FEATURE_RANK;
  return { rank, name: `${FOLDER_NAMES[rank]} ${folder}/`, scope: 'api', folder };
}

/** Why an import runs up the layering, or undefined when it does not. */
function upwardReason(from, to) {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a.scope === 'libs' && b.scope === 'api') return `${a.name} imports the app`;
  if (a.scope !== b.scope) return undefined; // the app on a lib: always down (libs rank by themselves)
  if (b.rank > a.rank) return `${a.name} imports ${b.name}`;
  // roles order the files of one feature or platform folder; the composition root composes whatever it needs
  if (a.folder === undefined || a.folder !== b.folder || a.rank === TEST_ONLY_RANK || a.rank === API_FOLDER_RANK.app) return undefined;
  const [ra, rb] = [roleRank(from), roleRank(to)];
  if (rb > ra) return `a ${ROLE_NAMES[ra]} file imports a ${ROLE_NAMES[rb]} file`;
  return undefined;
}

/** Tarjan's strongly connected components; each one with more than one file is at least one cycle. */
function stronglyConnected(nodes, edges) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? new Set()).has(node)) components.push(component.sort());
    }
  };
  for (const node of nodes) if (!indexOf.has(node)) visit(node);
  return components;
}

/** One shortest cycle through the component's first file, for the message. */
function cycleThrough(component, edges) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        for (let at = previous.get(node); at !== undefined; at = previous.get(at)) path.unshift(at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

function analyse() {
  const files = SOURCE_ROOTS.filter((dir) => existsSync(join(ROOT, dir))).flatMap((dir) => sourceFiles(join(ROOT, dir)));
  const edges = new Map();
  const upward = [];
  const unresolved = [];
  for (const file of files) {
    const targets = new Set();
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (!specifier.startsWith('.') && !specifier.startsWith('@twofold/')) continue;
      const target = resolveImport(file, specifier);
      if (!target) {
        unresolved.push(`${rel(file)}: ${specifier}`);
        continue;
      }
      targets.add(target);
      const reason = upwardReason(file, target);
      if (reason) upward.push({ from: rel(file), to: rel(target), typeOnly, reason });
    }
    edges.set(file, targets);
  }
  const cycles = stronglyConnected(files, edges).map((component) => ({
    files: component.map(rel),
    example: cycleThrough(component, edges).map(rel),
  }));
  return { files: files.length, cycles, upward, unresolved };
}

const result = analyse();
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  for (const cycle of result.cycles) {
    process.stdout.write(`cycle of ${cycle.files.length} files:\n  ${cycle.example.join('\n  → ')}\n`);
  }
  for (const { from, to, typeOnly, reason } of result.upward) {
    process.stdout.write(`upward: ${from} → ${to}${typeOnly ? ' (type only)' : ''}  [${reason}]\n`);
  }
  for (const line of result.unresolved) process.stdout.write(`unresolved: ${line}\n`);
  process.stdout.write(`${result.files} files, ${result.cycles.length} import cycles, ${result.upward.length} upward imports\n`);
}
if (process.argv.includes('--check') && (result.cycles.length > 0 || result.upward.length > 0)) process.exitCode = 1;
