// Prints the time of a V8 CPU profile (.cpuprofile, as `node --cpu-prof` writes) by function (self
// and with what it called) and by file, heaviest first. `--match RE` keeps the functions whose
// name or file matches. Run: node bench/lib/profile-top.mjs FILE.cpuprofile [N] [--match RE]

import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const m = args.indexOf('--match');
const match = m >= 0 ? new RegExp(args.splice(m, 2)[1]) : null;
const [file, nArg = '40'] = args;
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const keyOf = (n) => {
  const cf = n.callFrame;
  const where = cf.url.replace(/^.*node_modules\//, 'nm/').replace(/^file:\/\/.*?\/(dist|src|bin)\//, '$1/');
  return { key: `${cf.functionName || '(anon)'} ${where}:${cf.lineNumber + 1}`, where: where || cf.functionName };
};
const fnSelf = new Map();
const fnTotal = new Map();
const files = new Map();
for (const [id, us] of self) {
  const { key, where } = keyOf(byId.get(id));
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
  files.set(where, (files.get(where) ?? 0) + us);
  // inclusive: once per distinct function on the stack
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur)).key;
    if (seen.has(k)) continue;
    seen.add(k);
    fnTotal.set(k, (fnTotal.get(k) ?? 0) + us);
  }
}
const top = (mp) => [...mp].filter(([k]) => !match || match.test(k)).sort((a, b) => b[1] - a[1]).slice(0, Number(nArg));
const ms = (us) => `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
console.log('--- self');
for (const [k, us] of top(fnSelf)) console.log(`${ms(us)}  ${k}`);
console.log('--- total (self and callees)');
for (const [k, us] of top(fnTotal)) console.log(`${ms(us)}  ${k}`);
console.log('--- by file (self)');
for (const [k, us] of top(files)) console.log(`${ms(us)}  ${k}`);
