// Summarises a V8 CPU profile (`node --cpu-prof`, a .cpuprofile file): sampled time by function (self), by package or
// file (self), and inclusive time by function, each with its share of the whole. How the gateway's public-page fast path
// was profiled (docs/benchmarks.md): start the gateway with `NODE_OPTIONS=--cpu-prof --cpu-prof-dir=<dir>`, load it
// with wrk, stop it with SIGTERM (the profile is written at exit), then
// `node tools/bench/cpuprofile-summary.mjs <dir>/<file>.cpuprofile [rows]`.
import { readFileSync } from 'node:fs';

const [file, rowsArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node tools/bench/cpuprofile-summary.mjs <file.cpuprofile> [rows]\n');
  process.exit(2);
}
const rows = Number(rowsArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);

// Each sample's time is the delta to the next sample (µs).
const selfById = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfById.set(id, (selfById.get(id) ?? 0) + dt);
  total += dt;
});

const short = (url) => url.replace(/^file:\/\/\/?.*?\/(apps|libs|tools|node_modules)\//, '$1/').replace(/node_modules\//g, 'nm/');
const fn = (n) => `${n.callFrame.functionName || '(anonymous)'} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const pkg = (n) => {
  const url = short(n.callFrame.url);
  return /nm\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url || n.callFrame.functionName);
};
const sum = (key) => {
  const by = new Map();
  for (const [id, t] of selfById) by.set(key(nodes.get(id)), (by.get(key(nodes.get(id))) ?? 0) + t);
  return [...by].sort((a, b) => b[1] - a[1]);
};
const print = (title, list) => {
  process.stdout.write(`--- ${title}\n`);
  for (const [name, t] of list.slice(0, rows)) {
    process.stdout.write(`${(t / 1000).toFixed(0).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}\n`);
  }
};

process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n`);
print('self time by function', sum(fn));
print('self time by package or file', sum(pkg));
// Inclusive: a sample counts once for every distinct function on its stack.
const inclusive = new Map();
for (const [id, t] of selfById) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const name = fn(nodes.get(at));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + t);
  }
}
print(
  'inclusive time by function',
  [...inclusive].sort((a, b) => b[1] - a[1]),
);
