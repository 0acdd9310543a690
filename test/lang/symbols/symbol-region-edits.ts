// Texts and edits for the differential test of lang/symbols/symbol-region.ts: real TypeScript and
// JavaScript files of this repository, the symbol-edit bench's generated file (in TypeScript and
// in JavaScript), a generated TSX file, and random edits in and around one top-level node of a text,
// described as data (fast-check arbitraries) and applied as a replacement of a span of the text.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { REPO } from '../../helpers/mcp-client.js';

export interface Source {
  name: string;
  /** ast-grep's grammar name. */
  lang: 'TypeScript' | 'Tsx' | 'JavaScript';
  text: string;
}

function walk(dir: string, ext: RegExp, out: string[]): void {
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (e === 'node_modules' || e === 'work' || e === 'results' || e === 'fixtures') continue;
    if (statSync(p).isDirectory()) walk(p, ext, out);
    else if (ext.test(e)) out.push(p);
  }
}

/** The bench's 2,000-line file (80 functions of 23 lines), with types or without. */
export function benchText(typed: boolean): string {
  const out: string[] = [];
  for (let k = 0; k < 80; k++) {
    out.push(`// handler ${k}: generated for the hashline benchmarks`);
    out.push(typed ? `export function handler${k}(input: Record<string, number>, scale: number): number {` : `export function handler${k}(input, scale) {`);
    for (let j = 0; j < 20; j++) out.push(`  const v${j} = (input['key${j}'] ?? ${j}) * scale + ${k * 100 + j}; // step ${j}`);
    out.push(`  return v0 + v19 + ${k};`, '}', '');
  }
  return `${out.join('\n')}\n`;
}

/** A TSX file of components whose JSX holds braces in every place it can. */
export function tsxText(): string {
  const out: string[] = ["import React from 'react';", ''];
  for (let k = 0; k < 12; k++) {
    out.push(
      `/** Card ${k}. */`,
      `export function Card${k}({ title, items }: { title: string; items: string[] }) {`,
      `  const style = { padding: ${k}, margin: { top: 1 } };`,
      '  return (',
      `    <div className="card" style={{ padding: ${k} }} data-x={'}'}>`,
      '      <h2>{title} {"{"}</h2>',
      '      {items.map((it) => <li key={it}>{`${it}}`}</li>)}',
      '    </div>',
      '  );',
      '}',
      '',
      `export class Panel${k} extends React.Component<{ n: number }> {`,
      '  render() {',
      `    return <section>{this.props.n > ${k} ? <b>{'}'}</b> : null}</section>;`,
      '  }',
      '}',
      '',
    );
  }
  return out.join('\n');
}

/** The corpus: every TypeScript file of src/ and bench/, the JavaScript of scripts/ and bench/, and the generated files. */
export function corpus(): Source[] {
  const ts: string[] = [];
  walk(path.join(REPO, 'src'), /\.ts$/, ts);
  walk(path.join(REPO, 'bench'), /\.ts$/, ts);
  const js: string[] = [];
  walk(path.join(REPO, 'scripts'), /\.m?js$/, js);
  walk(path.join(REPO, 'bench'), /\.m?js$/, js);
  return [
    ...ts.map((p) => ({ name: path.relative(REPO, p), lang: 'TypeScript' as const, text: readFileSync(p, 'utf8') })),
    ...js.map((p) => ({ name: path.relative(REPO, p), lang: 'JavaScript' as const, text: readFileSync(p, 'utf8') })),
    { name: 'fixtures/sample.js', lang: 'JavaScript', text: readFileSync(path.join(REPO, 'test/fixtures/lang/sample.js'), 'utf8') },
    { name: 'fixtures/sample.tsx', lang: 'Tsx', text: readFileSync(path.join(REPO, 'test/fixtures/lang/sample.tsx'), 'utf8') },
    { name: 'bench symbol-edit (ts)', lang: 'TypeScript', text: benchText(true) },
    { name: 'bench symbol-edit (js)', lang: 'JavaScript', text: benchText(false) },
    { name: 'generated.tsx', lang: 'Tsx', text: tsxText() },
  ];
}

/** Lines an edit puts in that keep a function body whole: braces in strings, templates, comments and regexes, nested definitions. */
const BALANCED = [
  '  if (x) { return 1; }',
  '  const s = "}";',
  "  const s2 = '{';",
  '  const t = `${a}}`;',
  '  // }',
  '  /* { */',
  '  const r = /}/;',
  '  const o = { a: { b: 1 } };',
  '  function inner() { return 2; }',
  '  class Inner { m() { return 3; } }',
  '  const id = <T,>(y: T) => y;',
  '  label: for (;;) { break label; }',
  '  return;',
  '',
  '   ',
  '  await foo();',
  '  const e = `${`${"}"}`}`;',
  "  const u = 'ü€😀';",
  '  x = a\n  (b)',
  '  const NAME = 1;',
  '  function NAME() {}',
  '  NAME();',
  '  class NAME {}',
  '  let { a, b } = c',
  '  const f = function () { return "{"; };',
  '  switch (x) { case 1: { break; } default: }',
  '  const g = `line\n  }\n`;',
];

/** Lines that break a body or its edges: unbalanced braces, open strings and comments, things only a class body or JSX holds. */
const BREAKING = [
  '  const t2 = `',
  '  `;',
  '  /* unterminated',
  '  {',
  '  }',
  '  "unterminated',
  '  return (',
  '}',
  '}\nexport function injected() {',
  'function handler1() {}',
  '  yield 1;',
  '  #priv = 1;',
  '  m() { return this; }',
  '  static { init(); }',
  '  return <div>{"}"}</div>;',
  '  NAME() { return 0; }',
  '  }\n  {',
];

/** Characters a character-level edit puts in. */
const CHARS = '{}()[];"\'`/*\n a=x<>\\$,.';

const line = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...BALANCED) }, { weight: 1, arbitrary: fc.constantFrom(...BREAKING) });
const snippetLines = (name: string) => fc.array(line, { minLength: 1, maxLength: 4 }).map((ls) => ls.map((l) => l.replaceAll('NAME', name)));

/** An edit relative to a chosen node: which lines or characters it replaces, and with what. */
export type Edit =
  | { kind: 'body-lines'; from: number; count: number; lines: string[] }
  | { kind: 'replace-lines'; from: number; count: number; lines: string[] }
  | { kind: 'insert-lines'; at: number; lines: string[] }
  | { kind: 'delete-lines'; from: number; count: number }
  | { kind: 'chars'; at: number; remove: number; insert: string }
  | { kind: 'first-line'; line: string }
  | { kind: 'last-line'; line: string }
  | { kind: 'into-next'; from: number; through: number; lines: string[] }
  | { kind: 'two-places'; at: number; insert: string; far: number };

/** Edits for a node named `name` (positions are fractions of the node, mapped when applied). */
export function editArb(name: string): fc.Arbitrary<Edit> {
  const frac = fc.integer({ min: 0, max: 1000 });
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ kind: fc.constant('body-lines' as const), from: frac, count: fc.integer({ min: 0, max: 3 }), lines: snippetLines(name) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace-lines' as const), from: frac, count: fc.integer({ min: 1, max: 4 }), lines: snippetLines(name) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('insert-lines' as const), at: frac, lines: snippetLines(name) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete-lines' as const), from: frac, count: fc.integer({ min: 1, max: 5 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('chars' as const), at: fc.integer({ min: -20, max: 1020 }), remove: fc.integer({ min: 0, max: 4 }), insert: fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 6 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('first-line' as const),
        line: fc.constantFrom(`export async function ${name}() {`, `function ${name}2(a, b) {`, `export function ${name}(x = "{") {`, `class ${name} {`, `export default function ${name}() {`, `@dec export class ${name} {`),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('last-line' as const), line: fc.constantFrom('}', '};', '} // end', '}}', '} foo()', '}\n(1)', ' }', '', '}\n`') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('into-next' as const), from: frac, through: fc.integer({ min: 0, max: 3 }), lines: snippetLines(name) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('two-places' as const), at: frac, insert: fc.constantFrom('x', '1;', '}'), far: frac }) },
  );
}

/** The node an edit is made in: offsets [start, end) in the text. */
export interface Target {
  start: number;
  end: number;
}

const lineStarts = (text: string): number[] => {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
};

/** Applies `edit` made in `node` of `text`; `next` is the node after it (for edits reaching into it). */
export function applyEdit(text: string, node: Target, next: Target | undefined, edit: Edit): string {
  const starts = lineStarts(text);
  const lineOf = (at: number) => {
    let i = 0;
    while (i + 1 < starts.length && starts[i + 1]! <= at) i++;
    return i;
  };
  const first = lineOf(node.start);
  const last = lineOf(Math.max(node.start, node.end - 1));
  const pick = (f: number) => first + Math.round((f / 1000) * (last - first));
  const lineEnd = (i: number) => (i + 1 < starts.length ? starts[i + 1]! : text.length);
  const splice = (from: number, to: number, insert: string) => text.slice(0, from) + insert + text.slice(to);
  const block = (lines: string[]) => `${lines.join('\n')}\n`;
  switch (edit.kind) {
    case 'body-lines': {
      // lines strictly between the node's first and last (none when it has no such line); count 0 inserts
      if (last - first < 2) return text;
      const a = first + 1 + Math.round((edit.from / 1000) * (last - first - 2));
      return splice(starts[a]!, edit.count === 0 ? starts[a]! : lineEnd(Math.min(last - 1, a + edit.count - 1)), block(edit.lines));
    }
    case 'replace-lines': {
      const a = pick(edit.from);
      return splice(starts[a]!, lineEnd(Math.min(last, a + edit.count - 1)), block(edit.lines));
    }
    case 'insert-lines': {
      const a = pick(edit.at);
      return splice(starts[a]!, starts[a]!, block(edit.lines));
    }
    case 'delete-lines': {
      const a = pick(edit.from);
      return splice(starts[a]!, lineEnd(Math.min(last, a + edit.count - 1)), '');
    }
    case 'chars': {
      const at = Math.max(0, Math.min(text.length, node.start + Math.round((edit.at / 1000) * (node.end - node.start))));
      return splice(at, Math.min(text.length, at + edit.remove), edit.insert);
    }
    case 'first-line':
      return splice(starts[first]!, lineEnd(first), `${edit.line}\n`);
    case 'last-line':
      return splice(starts[last]!, lineEnd(last), `${edit.line}\n`);
    case 'into-next': {
      const a = pick(edit.from);
      const b = next ? lineOf(next.start) + edit.through : last + edit.through;
      return splice(starts[a]!, lineEnd(Math.min(starts.length - 1, b)), block(edit.lines));
    }
    case 'two-places': {
      const a = starts[pick(edit.at)]!;
      const b = Math.round((edit.far / 1000) * text.length);
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      return text.slice(0, lo) + edit.insert + text.slice(lo, hi) + edit.insert + text.slice(hi);
    }
  }
}
