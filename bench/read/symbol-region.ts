// The work of a symbol read right after an edit, on the symbol-edit bench's 2,000-line TypeScript
// file, in process: a whole parse of the edited text plus the lookup (what a read costs when the
// background parse has not finished), against the region re-parse (lang/symbols/symbol-region.ts: the
// changed function parsed alone, the rest from the earlier text's tree), alternated, each round a
// new edit of the same function; and the one walk of the earlier tree the region re-parse needs
// (once per file, done after the first read). Prints medians of wall and CPU time.
// Run: npm run bench:symbol-region

import { napi } from '../../src/lang/grammar/napi.js';
import { languageById } from '../../src/lang/grammar/registry.js';
import { symbolFromRegion } from '../../src/lang/symbols/symbol-region.js';
import { findSymbol } from '../../src/lang/symbols/symbols.js';
import { treeFacts } from '../../src/lang/parse/tree-facts.js';
import { median } from '../lib/stats.js';
import { fileText, TARGET } from '../workloads/symbol-edit.js';

const ROUNDS = 30;
/** The bench's file with function TARGET salted. */
const fileTextWith = (salt: string) => fileText((k) => (k === TARGET ? salt : ''));

/** Wall and CPU milliseconds of `f` (CPU of this process: the parse runs on this thread). */
function measure(f: () => unknown): { wall: number; cpu: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  f();
  const wall = performance.now() - t;
  const d = process.cpuUsage(c);
  return { wall, cpu: (d.user + d.system) / 1000 };
}

const lang = languageById('TypeScript')!;
const name = `handler${TARGET}`;
const before = fileTextWith('');
const tree = napi().parse('TypeScript' as never, before);
const walk = measure(() => treeFacts(tree));
const whole: Array<{ wall: number; cpu: number }> = [];
const region: Array<{ wall: number; cpu: number }> = [];
for (let i = 0; i < ROUNDS + 2; i++) {
  const after = fileTextWith(`r${i} `);
  let a: unknown;
  let b: unknown;
  const w = measure(() => (a = findSymbol(lang, napi().parse('TypeScript' as never, after), name)));
  const r = measure(() => (b = symbolFromRegion(lang, before, tree, after, name)));
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`the region re-parse gave ${JSON.stringify(b)}, the whole parse ${JSON.stringify(a)}`);
  if (i >= 2) {
    whole.push(w);
    region.push(r);
  }
}
const fmt = (xs: Array<{ wall: number; cpu: number }>) => `${median(xs.map((x) => x.wall)).toFixed(2)} ms wall, ${median(xs.map((x) => x.cpu)).toFixed(2)} ms CPU`;
console.log(`symbol ${name} after an edit of it, 2,000-line TypeScript file, median of ${ROUNDS} alternated rounds:`);
console.log(`  whole parse + lookup:          ${fmt(whole)}`);
console.log(`  region re-parse:               ${fmt(region)}`);
console.log(`  walk of the earlier tree, once: ${walk.wall.toFixed(2)} ms wall, ${walk.cpu.toFixed(2)} ms CPU`);
