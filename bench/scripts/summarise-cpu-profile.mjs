// Summarises V8 CPU profiles (.cpuprofile, from `node --cpu-prof`): the functions with the most
// self time, and the inclusive time of the functions given with --focus (a name each), so a
// profile of the server under `npm run bench` can be read without a browser.
//
//   node bench/scripts/summarise-cpu-profile.mjs profile.cpuprofile [--top 25] [--focus writeForm,evaluateSubject]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const files = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const top = Number(option('top', '25'));
const focus = (option('focus', '') ?? '').split(',').filter(Boolean);

const self = new Map();
/** Self time by where the code lives: our packages, each npm package, Node itself. */
const byArea = new Map();
const inclusive = new Map();
let totalMicros = 0;

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfMicros = new Map();
  for (let i = 0; i < profile.samples.length; i += 1) {
    const delta = profile.timeDeltas[i] ?? 0;
    selfMicros.set(profile.samples[i], (selfMicros.get(profile.samples[i]) ?? 0) + delta);
    totalMicros += delta;
  }
  const keyOf = (node) => {
    const frame = node.callFrame;
    const where = frame.url
      ? `${frame.url.replace(/^.*\/(apps|packages|node_modules)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    return `${frame.functionName || '(anonymous)'} ${where}`.trim();
  };
  for (const [id, micros] of selfMicros) {
    const node = nodes.get(id);
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + micros);
    const url = node.callFrame.url ?? '';
    const area = url.includes('/node_modules/')
      ? `npm ${url
          .split('/node_modules/')
          .at(-1)
          .split('/')
          .slice(0, url.split('/node_modules/').at(-1).startsWith('@') ? 2 : 1)
          .join('/')}`
      : url.includes('/packages/') || url.includes('/apps/')
        ? url.replace(/^.*\/(packages|apps)\/([^/]+)\/.*$/, '$1/$2')
        : node.callFrame.functionName.startsWith('(')
          ? node.callFrame.functionName
          : 'node (built-ins: sockets, buffers, crypto…)';
    byArea.set(area, (byArea.get(area) ?? 0) + micros);
    // Inclusive: each sample counts once for every distinct function on its stack.
    const seen = new Set();
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const name = nodes.get(current).callFrame.functionName;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  }
}

const ms = (micros) => `${(micros / 1000).toFixed(0)} ms`;
const share = (micros) => `${((100 * micros) / totalMicros).toFixed(1)} %`;
console.log(`${files.length} profile(s), ${ms(totalMicros)} sampled`);
console.log('\nself time by area:');
for (const [area, micros] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${share(micros).padStart(7)}  ${ms(micros).padStart(8)}  ${area}`);
console.log(`\nself time, top ${top}:`);
for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`  ${share(micros).padStart(7)}  ${ms(micros).padStart(8)}  ${key}`);
if (focus.length > 0) {
  console.log('\ninclusive time:');
  for (const name of focus) {
    const micros = inclusive.get(name) ?? 0;
    console.log(`  ${share(micros).padStart(7)}  ${ms(micros).padStart(8)}  ${name}`);
  }
}
