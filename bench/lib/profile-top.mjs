// Prints the self time of a V8 CPU profile (.cpuprofile, as `node --cpu-prof` writes) by function
// and by file, heaviest first. Run: node bench/lib/profile-top.mjs FILE.cpuprofile [N]

import { readFileSync } from 'node:fs';

const [file, nArg = '40'] = process.argv.slice(2);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const files = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const where = cf.url.replace(/^.*node_modules\//, 'nm/').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/');
  const key = `${cf.functionName || '(anon)'} ${where}:${cf.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  files.set(where || cf.functionName, (files.get(where || cf.functionName) ?? 0) + us);
}
const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(nArg));
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
for (const [k, us] of top(fn)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
console.log('--- by file');
for (const [k, us] of top(files)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
