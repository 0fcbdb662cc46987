// Fails when two or more folders of apps/server/src depend on each other, directly or round a
// longer circle (docs/ARCHITECTURE.md: layers only point down). dependency-cruiser's `circular` rule
// sees cycles of files; folders can lean on each other through files that form no file cycle, so
// this script builds the folder graph from the tool's JSON and looks for its strongly connected
// components (Tarjan). A file directly in src/ (app.ts, config.ts, …) counts as a folder of its own.
// Tests (*.test.ts, *.checks.ts) are left out, as in the layer rules.
//
//   node scripts/check-server-folder-cycles.mjs          the check (npm run lint)
//   node scripts/check-server-folder-cycles.mjs --edges  also every folder edge with one import
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER = 'apps/server/src/';
const TEST = /\.(test|checks)\.ts$/;

// The package exports only its API (src/main/index.mjs); its command line is bin/ beside src/.
const depcruise = fileURLToPath(
  new URL('../../bin/dependency-cruiser.mjs', import.meta.resolve('dependency-cruiser')),
);
const json = execFileSync(
  process.execPath,
  [depcruise, '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--no-progress', SERVER],
  { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] },
);
const { modules } = JSON.parse(json);

/** The folder a server file belongs to, or null for anything outside apps/server/src. */
function folderOf(file) {
  if (!file.startsWith(SERVER)) return null;
  return file.slice(SERVER.length).split('/')[0];
}

/** folder → (folder it imports → one import that shows it) */
const edges = new Map();
for (const module of modules) {
  if (TEST.test(module.source)) continue;
  const from = folderOf(module.source);
  if (!from) continue;
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved);
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, `${module.source} → ${dependency.resolved}`);
  }
}

const cycles = stronglyConnected(edges).filter((component) => component.length > 1);

if (process.argv.includes('--edges')) {
  for (const [from, targets] of [...edges].sort()) {
    for (const [to, example] of [...targets].sort()) console.log(`${from} → ${to}   (${example})`);
  }
}
if (cycles.length === 0) {
  console.log(`server folders: ${edges.size} with imports, no cycle between them`);
  process.exit(0);
}
console.error(`server folders: ${cycles.length} cycle(s); each folder below imports another of its group:`);
for (const cycle of cycles) {
  console.error(`\n  ${cycle.length} folders: ${cycle.join(', ')}`);
  for (const from of cycle) {
    for (const [to, example] of edges.get(from) ?? []) {
      if (cycle.includes(to)) console.error(`    ${from} → ${to}   (${example})`);
    }
  }
}
process.exit(1);

/** Tarjan's strongly connected components, each sorted, the largest first. */
function stronglyConnected(graph) {
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((targets) => [...targets.keys()])]);
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  function visit(node) {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  }
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => b.length - a.length);
}
