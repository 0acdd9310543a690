// Differential test of the region re-parse (lang/symbols/symbol-region.ts): over real files and random
// edits in and around one top-level node, whenever the fast path answers, its match and the block
// it renders are identical to those of a whole parse of the new text. Counts how often it answered.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { SgRoot } from '@ast-grep/napi';
import { renderBlock } from '../../../src/core/read/read-render.js';
import { ReplyBudget } from '../../../src/core/read/reply-budget.js';
import { splitLines } from '../../../src/core/text/text-doc.js';
import { napi } from '../../../src/lang/grammar/napi.js';
import { languageById, type LanguageInfo } from '../../../src/lang/grammar/registry.js';
import { changedSpan, regionStats, symbolFromRegion } from '../../../src/lang/symbols/symbol-region.js';
import { findSymbol, type SymbolMatch } from '../../../src/lang/symbols/symbols.js';
import { treeFacts, type TopNode } from '../../../src/lang/parse/tree-facts.js';
import { applyEdit, benchText, corpus, editArb, type Source } from './symbol-region-edits.js';

interface Base extends Source {
  info: LanguageInfo;
  tree: SgRoot;
  tops: readonly TopNode[];
  /** Names of the top-level declarations (a few other words of the file too). */
  names: string[];
}

const DECL = /^(?:export\s+)?(?:async\s+)?(?:function\*?|class|abstract\s+class)\s+([A-Za-z_$][\w$]*)/;

function prepare(s: Source): Base | null {
  const info = languageById(s.lang)!;
  const tree = napi().parse(s.lang as never, s.text);
  const facts = treeFacts(tree);
  if (!facts.clean) return null;
  const tops = facts.tops.filter((t) => t.kind !== 'comment');
  if (tops.length === 0) return null;
  const names = new Set<string>();
  for (const t of tops) {
    const m = DECL.exec(s.text.slice(t.start, t.start + 200));
    if (m) names.add(m[1]!);
  }
  return { ...s, info, tree, tops, names: [...names, 'injected', 'inner', 'Inner', 'm', 'render'] };
}

function render(text: string, match: SymbolMatch, full: boolean): string {
  const { lines, endings } = splitLines(text);
  const src = { total: lines.length, line: (n: number) => lines[n - 1] ?? '', trailingEmpty: lines.length === 0 || endings[endings.length - 1] !== '' };
  return JSON.stringify(renderBlock(src, match, new ReplyBudget(), full));
}

interface Tally {
  cases: number;
  unchanged: number;
  answered: number;
  mismatches: string[];
}

/** One case: edit `base` in its top-level node `ti`, read `name`; a mismatch is recorded, not thrown. */
function check(base: Base, ti: number, edit: Parameters<typeof applyEdit>[3], name: string, full: boolean, tally: Tally): void {
  const node = base.tops[ti]!;
  const after = applyEdit(base.text, node, base.tops[ti + 1], edit);
  tally.cases++;
  if (after === base.text) {
    tally.unchanged++;
    return;
  }
  const fast = symbolFromRegion(base.info, base.text, base.tree, after, name);
  if (fast === undefined) return;
  tally.answered++;
  const whole = findSymbol(base.info, napi().parse(base.lang as never, after), name);
  const same = whole !== null && fast.start === whole.start && fast.end === whole.end && fast.kind === whole.kind && render(after, fast, full) === render(after, whole, full);
  if (!same) {
    const span = changedSpan(base.text, after);
    tally.mismatches.push(`${base.name} node ${ti} (${node.kind}) name ${name}: fast ${JSON.stringify(fast)} whole ${JSON.stringify(whole)}; edit ${JSON.stringify(edit)}; new text ${JSON.stringify(after.slice(Math.max(0, span.start - 80), span.afterEnd + 80))}`);
  }
}

// a longer search: HASHLINE_REGION_RUNS=20000 HASHLINE_REGION_SEED=7 node scripts/test.mjs test/lang/symbols/symbol-region.test.ts
const RUNS = Number(process.env.HASHLINE_REGION_RUNS ?? 1500);
const SEED = Number(process.env.HASHLINE_REGION_SEED ?? 20261202);
const bases = corpus().map(prepare).filter((b): b is Base => b !== null);

test('changedSpan finds the longest common prefix and then the longest common suffix that does not overlap it', () => {
  const naive = (a: string, b: string) => {
    const min = Math.min(a.length, b.length);
    let s = 0;
    while (s < min && a[s] === b[s]) s++;
    let t = 0;
    while (t < min - s && a[a.length - 1 - t] === b[b.length - 1 - t]) t++;
    return { start: s, beforeEnd: a.length - t, afterEnd: b.length - t };
  };
  // two letters and long texts, so that the chunked comparison meets every boundary
  const text = fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 5000 });
  fc.assert(
    fc.property(text, fc.nat(5000), fc.nat(3000), text, (a, at, remove, insert) => {
      const i = Math.min(at, a.length);
      const b = a.slice(0, i) + insert + a.slice(i + remove);
      assert.deepEqual(changedSpan(a, b), naive(a, b));
    }),
    { numRuns: 1000, seed: SEED },
  );
});

test('the corpus holds clean trees of every language the region re-parse serves', () => {
  const langs = new Set(bases.map((b) => b.lang));
  assert.deepEqual([...langs].sort(), ['JavaScript', 'Tsx', 'TypeScript']);
  assert.ok(bases.length > 200, `${bases.length} files`);
});

test('random edits of real files: whenever the region re-parse answers, it is what a whole parse gives', () => {
  const tally: Tally = { cases: 0, unchanged: 0, answered: 0, mismatches: [] };
  const fragmentsBefore = regionStats.fragments;
  const arb = fc
    .record({ file: fc.nat(bases.length - 1), node: fc.nat(), pickName: fc.nat(), full: fc.boolean() })
    .chain(({ file, node, pickName, full }) => {
      const base = bases[file]!;
      // mostly a function or class declaration (the kinds the fast path serves), else any top-level node
      const decls = base.tops.flatMap((t, i) => (DECL.test(base.text.slice(t.start, t.start + 200)) ? [i] : []));
      const ti = decls.length > 0 && node % 8 !== 0 ? decls[node % decls.length]! : node % base.tops.length;
      const own = DECL.exec(base.text.slice(base.tops[ti]!.start, base.tops[ti]!.start + 200))?.[1];
      // mostly the edited node's own name, sometimes another name of the file
      const name = own !== undefined && pickName % 4 !== 0 ? own : base.names[pickName % base.names.length]!;
      return editArb(own ?? name).map((edit) => ({ base, ti, name, edit, full }));
    });
  fc.assert(
    fc.property(arb, ({ base, ti, name, edit, full }) => {
      check(base, ti, edit, name, full, tally);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.log(`region re-parse: ${tally.cases} cases, ${tally.unchanged} left the text as it was, ${tally.answered} answered by the fast path, ${regionStats.fragments - fragmentsBefore} fragments parsed, ${tally.mismatches.length} mismatches`);
  assert.deepEqual(tally.mismatches, []);
  assert.ok(tally.answered >= RUNS / 10, `the fast path answered only ${tally.answered} times`);
});

test("the bench's file: edits inside one handler are answered by the fast path, exactly", () => {
  const tally: Tally = { cases: 0, unchanged: 0, answered: 0, mismatches: [] };
  const base = prepare({ name: 'bench', lang: 'TypeScript', text: benchText(true) })!;
  const fns = base.tops.map((t, i) => [t, i] as const).filter(([t]) => t.kind === 'export_statement');
  const arb = fc.record({ k: fc.nat(fns.length - 1), full: fc.boolean() }).chain(({ k, full }) => editArb(`handler${k}`).map((edit) => ({ k, full, edit })));
  fc.assert(
    fc.property(arb, ({ k, full, edit }) => {
      check(base, fns[k]![1], edit, `handler${k}`, full, tally);
    }),
    { numRuns: Math.ceil(RUNS / 30), seed: SEED + 1 },
  );
  console.log(`region re-parse, bench file: ${tally.cases} cases, ${tally.answered} answered by the fast path, ${tally.mismatches.length} mismatches`);
  assert.deepEqual(tally.mismatches, []);
  assert.ok(tally.answered >= RUNS / 300, `the fast path answered only ${tally.answered} times`);
});

test('the edit of the bench (23 lines of one function rewritten) is answered from a fragment, and shifted lines are right', () => {
  const base = prepare({ name: 'bench', lang: 'TypeScript', text: benchText(true) })!;
  const lines = base.text.split('\n');
  // handler41 is lines 1027..1049; make it 3 lines longer and read it, and a handler after it
  const at = lines.indexOf('export function handler41(input: Record<string, number>, scale: number): number {');
  const edited = [...lines.slice(0, at + 1), '  const s = "}";', '  if (scale) { return `${scale}}`; }', '  // }', ...lines.slice(at + 1)].join('\n');
  const before = regionStats.answered;
  const fast = symbolFromRegion(base.info, base.text, base.tree, edited, 'handler41');
  assert.equal(regionStats.answered, before + 1);
  assert.deepEqual(fast, findSymbol(base.info, napi().parse('TypeScript' as never, edited), 'handler41'));
  assert.deepEqual(fast, { start: at + 1, end: at + 26, kind: 'function_declaration' });
  // a definition elsewhere in the file is not answered from this region
  assert.equal(symbolFromRegion(base.info, base.text, base.tree, edited, 'handler42'), undefined);
});

test('doubts fall back: another language, a broken earlier tree, a second definition of the name, an edit of two definitions', () => {
  const ts = languageById('TypeScript')!;
  const two = 'export function a() {\n  return 1;\n}\n\nexport function b() {\n  return 2;\n}\n';
  const tree = napi().parse('TypeScript' as never, two);
  const inA = two.replace('return 1;', 'return 10;');
  assert.deepEqual(symbolFromRegion(ts, two, tree, inA, 'a'), { start: 1, end: 3, kind: 'function_declaration' });
  assert.equal(symbolFromRegion(ts, two, tree, inA.replace('return 2;', 'return 20;'), 'a'), undefined, 'two definitions changed');
  assert.equal(symbolFromRegion(ts, two, tree, two.replace('return 1;', 'return {;'), 'a'), undefined, 'the new definition does not parse');
  const twice = `${two}function a() {}\n`;
  assert.equal(symbolFromRegion(ts, twice, napi().parse('TypeScript' as never, twice), twice.replace('return 1;', 'return 10;'), 'a'), undefined, 'a second definition of a');
  const broken = `${two}function c( {\n`;
  assert.equal(symbolFromRegion(ts, broken, napi().parse('TypeScript' as never, broken), broken.replace('return 1;', 'return 10;'), 'a'), undefined, 'the earlier tree has an error');
  const py = languageById('python')!;
  assert.equal(symbolFromRegion(py, two, tree, inA, 'a'), undefined, 'another language');
  const glued = 'export function a() {\n  return 1;\n}\n(b)\n';
  assert.equal(symbolFromRegion(ts, glued, napi().parse('TypeScript' as never, glued), glued.replace('return 1;', 'return 10;'), 'a'), undefined, 'the next statement starts with a parenthesis');
});
