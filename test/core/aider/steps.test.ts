// Each step of the aider cascade on its own terms: a case only that step places (the steps before
// it find nothing), and a case where it must refuse. The cascade (all matchers on) then agrees.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AIDER_MATCHERS } from '../../../src/core/config/config-schema.js';
import { placeBlock } from '../../../src/core/aider/cascade.js';
import fc from 'fast-check';
import { exactStep, spanByCount } from '../../../src/core/aider/exact.js';
import { LineIndex } from '../../../src/core/aider/line-index.js';
import { FUZZY_THRESHOLD, fuzzyStep } from '../../../src/core/aider/fuzzy.js';
import { indentationStep } from '../../../src/core/aider/indentation.js';
import { lineKey, normalizeWhitespace, whitespaceStep } from '../../../src/core/aider/whitespace.js';
import { applyEdits } from '../../../src/core/text/text-edits.js';

const apply = (text: string, search: string, replace: string) => {
  const o = placeBlock(text, { search, replace }, AIDER_MATCHERS);
  assert.equal(o.ok, true, JSON.stringify(o));
  return { out: applyEdits(text, [(o as { placement: { edit: { start: number; end: number; text: string } } }).placement.edit]), method: (o as { placement: { method: string } }).placement.method };
};

const FILE = ['function alpha() {', '  const total = compute(1, 2);', '  return total;', '}', '', 'function beta() {', '  return 42;', '}', ''].join('\n');

test('exact: a unique substring is replaced literally ($& and $1 stay as written)', () => {
  const r = exactStep(FILE, 'return 42;', 'return "$&$1";');
  assert.equal(r.kind, 'placed');
  const { out, method } = apply(FILE, 'return 42;', 'return "$&$1";');
  assert.equal(method, 'exact');
  assert.ok(out.includes('  return "$&$1";\n'));
});

test('exact: two occurrences (overlapping ones too) are ambiguous, with every span', () => {
  const r = exactStep(FILE, 'function', 'fn');
  assert.deepEqual(r, { kind: 'ambiguous', spans: [{ startLine: 1, endLine: 1 }, { startLine: 6, endLine: 6 }] });
  assert.equal(exactStep('aaa', 'aa', 'b').kind, 'ambiguous');
  const o = placeBlock(FILE, { search: 'function', replace: 'fn' }, AIDER_MATCHERS);
  assert.deepEqual(o, { ok: false, failure: 'ambiguous', method: 'exact', spans: [{ startLine: 1, endLine: 1 }, { startLine: 6, endLine: 6 }] });
});

test('whitespace: inner runs and trailing blanks differ; only this step places it, on exactly the quoted characters', () => {
  const text = 'a\nconst  x =\t1;   \nb\n';
  const search = 'const x = 1;\n';
  assert.equal(exactStep(text, search, '').kind, 'none');
  const r = whitespaceStep(text, search, 'const x = 2;\n');
  assert.equal(r.kind, 'placed');
  const { out, method } = apply(text, search, 'const x = 2;\n');
  assert.equal(method, 'whitespace');
  assert.equal(out, 'a\nconst x = 2;\nb\n');
  // a fragment inside a line keeps the rest of the line
  assert.equal(apply('  call(a,  b);\n', 'call(a, b)', 'call(c)').out, '  call(c);\n');
  assert.equal(normalizeWhitespace('  a \t b  \n\t\n'), '  a b\n\n');
});

test('whitespace: a tab in the indentation counts as 2 spaces, other depths are not this step\'s, and two occurrences are ambiguous', () => {
  assert.equal(whitespaceStep('    x  = 1;\n', 'x = 1;\n', '').kind, 'placed'); // a fragment of the line
  assert.equal(whitespaceStep('\tif (a) {\n', '  if (a) {\n', '').kind, 'placed');
  assert.equal(whitespaceStep('\tif (a) {\n', '    if (a) {\n', '').kind, 'none');
  assert.equal(lineKey('\t a  =\t1;  \t'), '   a = 1;');
  assert.equal(lineKey(' \t '), '');
  const twice = 'x  = 1;\ny = 2;\nx =   1;\n';
  const r = whitespaceStep(twice, 'x = 1;', 'z');
  assert.deepEqual(r, { kind: 'ambiguous', spans: [{ startLine: 1, endLine: 1 }, { startLine: 3, endLine: 3 }] });
  assert.equal(placeBlock(twice, { search: 'x = 1;', replace: 'z' }, AIDER_MATCHERS).ok, false);
});

// The whitespace step as the seed system runs it: whole lines compared line by line (tabs in the
// indentation as 2 spaces, inner runs collapsed, trailing blanks trimmed) and replaced whole.
const WHOLE_LINES: Array<{ name: string; text: string; search: string; replace: string; want: string }> = [
  {
    name: 'inner runs, trailing blanks and a tab for 2 spaces, over two lines',
    text: 'alpha  =   1;   \n\tbeta = 2;\nrest();\n',
    search: 'alpha = 1;\n  beta   = 2;',
    replace: 'alpha = 10;\n  beta = 20;',
    want: 'alpha = 10;\n  beta = 20;\nrest();\n',
  },
  {
    name: 'one line: the old trailing blanks go with it',
    text: 'let  spaced =  10;   \nnext();\n',
    search: 'let spaced = 10;',
    replace: 'let spaced = 20;',
    want: 'let spaced = 20;\nnext();\n',
  },
  {
    name: 'a search ending in a newline takes the line\'s newline, the replacement brings its own',
    text: 'a();\n  b(  1 );  \nc();\n',
    search: '  b( 1 );\n',
    replace: '  b(2);\n',
    want: 'a();\n  b(2);\nc();\n',
  },
  {
    name: 'blank lines inside the block match blank lines with blanks on them',
    text: 'x = 1;\n   \ny  = 2;\n',
    search: 'x = 1;\n\ny = 2;',
    replace: 'z = 3;',
    want: 'z = 3;\n',
  },
];

for (const c of WHOLE_LINES) {
  test(`whitespace, whole lines: ${c.name}`, () => {
    assert.equal(exactStep(c.text, c.search, '').kind, 'none');
    const { out, method } = apply(c.text, c.search, c.replace);
    assert.equal(method, 'whitespace');
    assert.equal(out, c.want);
  });
}

test('whitespace, whole lines: the same lines twice are ambiguous, with both spans', () => {
  const text = 'a  = 1;\n\tb = 2;\nmid();\na = 1;\n  b =  2;\n';
  assert.deepEqual(whitespaceStep(text, 'a = 1;\n  b = 2;', 'x'), { kind: 'ambiguous', spans: [{ startLine: 1, endLine: 2 }, { startLine: 4, endLine: 5 }] });
});

test('relative indentation: a block quoted at another depth is found and the replacement re-indented', () => {
  const text = 'class A:\n    def f(self):\n        if x:\n            return 1\n        return 2\n';
  const search = 'if x:\n    return 1\n';
  assert.equal(exactStep(text, search, '').kind, 'none');
  assert.equal(whitespaceStep(text, search, '').kind, 'none');
  const r = indentationStep(text, search, 'if y:\n    return 3\n');
  assert.equal(r.kind, 'placed');
  const { out, method } = apply(text, search, 'if y:\n    return 3\n');
  assert.equal(method, 'relative-indentation');
  assert.equal(out, 'class A:\n    def f(self):\n        if y:\n            return 3\n        return 2\n');
});

test('relative indentation: the same block at two depths is ambiguous; uneven shifts do not match', () => {
  const text = '  if x:\n    go()\n      if x:\n        go()\n';
  const r = indentationStep(text, 'if x:\n  go()\n', 'stop()\n');
  assert.deepEqual(r, { kind: 'ambiguous', spans: [{ startLine: 1, endLine: 2 }, { startLine: 3, endLine: 4 }] });
  assert.equal(indentationStep('    if x:\n  go()\n', 'if x:\n  go()\n', '').kind, 'none');
});

test('fuzzy: an imprecise quote lands on its one close region; the prefix the quote left out stays', () => {
  const search = 'const totl = compute(1, 2);\nreturn total;';
  for (const step of [exactStep, whitespaceStep, indentationStep]) assert.equal(step(FILE, search, '').kind, 'none');
  const r = fuzzyStep(FILE, search, 'const total = compute(3, 4);\n  return total;');
  assert.equal(r.kind, 'placed');
  const { out, method } = apply(FILE, search, 'const total = compute(3, 4);\n  return total;');
  assert.equal(method, 'diff-match-patch');
  assert.equal(out, FILE.replace('compute(1, 2)', 'compute(3, 4)'));
  assert.ok(r.kind === 'placed' && r.placement.similarity! >= FUZZY_THRESHOLD);
});

test('fuzzy: two equally good regions are a tie and refused', () => {
  const text = 'first: value = compute(1, 2); done\nmiddle line that differs\nfirst: value = compute(1, 2); done\n';
  const r = fuzzyStep(text, 'first: value = compute(1, 3); done\n', 'X\n');
  assert.equal(r.kind, 'ambiguous');
  assert.deepEqual(r.kind === 'ambiguous' && r.spans, [{ startLine: 1, endLine: 1 }, { startLine: 3, endLine: 3 }]);
  const o = placeBlock(text, { search: 'first: value = compute(1, 3); done\n', replace: 'X\n' }, AIDER_MATCHERS);
  assert.equal(o.ok, false);
  assert.equal(!o.ok && o.failure, 'ambiguous');
});

test('fuzzy: a region below the threshold is never used; the closest region and its similarity are reported', () => {
  const search = 'totally different words that appear nowhere\n';
  const r = fuzzyStep(FILE, search, 'X\n');
  assert.equal(r.kind, 'none');
  assert.ok(r.closest && r.closest.similarity < FUZZY_THRESHOLD, JSON.stringify(r));
  const o = placeBlock(FILE, { search, replace: 'X\n' }, AIDER_MATCHERS);
  assert.equal(o.ok, false);
  assert.equal(!o.ok && o.failure, 'no_match');
  assert.ok(!o.ok && o.failure === 'no_match' && o.closest && o.closest.span.startLine >= 1);
});

test('fuzzy: a separate region within the margin of the best is a near-tie and refused; a clear winner is placed', () => {
  const line = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda';
  const quote = `${line.slice(0, -1)}X\n`; // one edit from `line`
  const near = `${line.slice(0, -2)}qq`; // two edits from the quote: 1/63 against 2/63, within the margin
  const far = `${line.slice(0, -6)}qqqqqq`; // six edits: clearly worse
  const between = 'unrelated text in between here';
  const r = fuzzyStep(`${line}\n${between}\n${near}\n`, quote, 'Y\n');
  assert.equal(r.kind, 'ambiguous', JSON.stringify(r));
  const ok = fuzzyStep(`${line}\n${between}\n${far}\n`, quote, 'Y\n');
  assert.equal(ok.kind, 'placed', JSON.stringify(ok));
  assert.deepEqual(ok.kind === 'placed' && ok.placement.span, { startLine: 1, endLine: 1 });
});

test('fuzzy: a region of the same shape but other code is not the quoted one, however similar as a whole', () => {
  // 0.511 similar as a whole: a three-line function quoted with another name and body
  const text = 'export function load() {\n  return 8080;\n}\n';
  const r = fuzzyStep(text, 'export function save(data) {\n  write(data);\n}\n', '');
  assert.equal(r.kind, 'none');
  assert.match(r.note ?? '', /0 of the 2 quoted lines/);
  // the same quote with one line as written and one near miss still lands
  const near = fuzzyStep('export function load() {\n  return 8080;\n}\nconst other = 1;\n', 'export function load() {\n  return 8088;\n}\n', 'x\n');
  assert.equal(near.kind, 'placed');
  // one line: close to a line, or nothing
  assert.equal(fuzzyStep('const answer = computeTotal(items);\n', 'const answer = computeTotals(items);', 'y').kind, 'placed');
  assert.equal(fuzzyStep('const answer = computeTotal(items);\n', 'let result = sumAll(list, 0);', 'y').kind, 'none');
});

test('refusals kept: a function that exists nowhere is no match (not ambiguous), however alike in shape its neighbours are', () => {
  const text = 'function alpha(a) {\n  return a + 1;\n}\n\nfunction beta(b) {\n  return b + 2;\n}\n';
  for (const search of ['function gamma(c) {\n  return c + 3;\n}\n', 'function missing(value) {\n  return value * 2;\n}']) {
    const o = placeBlock(text, { search, replace: 'x\n' }, AIDER_MATCHERS);
    assert.equal(!o.ok && o.failure, 'no_match', JSON.stringify(o));
  }
  // a block equally close to two places stays ambiguous
  const two = 'function alpha(a) {\n  return a + 1;\n}\n\nfunction alpha(a) {\n  return a + 1;\n}\n';
  const amb = placeBlock(two, { search: 'function alpha(a) {\n  return a + 2;\n}\n', replace: 'x\n' }, AIDER_MATCHERS);
  assert.equal(!amb.ok && amb.failure, 'ambiguous', JSON.stringify(amb));
  // a block quoted without its indentation is re-indented, never placed unindented
  const nested = 'function f() {\n    first();\n    second();\n}\n';
  const { out, method } = apply(nested, 'first();\nsecond();\n', 'one();\ntwo();\n');
  assert.equal(method, 'relative-indentation');
  assert.equal(out, 'function f() {\n    one();\n    two();\n}\n');
});

test('cascade: an empty search appends (adding the missing final newline); empty and empty is refused', () => {
  assert.equal(apply('abc', '', 'tail\n').out, 'abc\ntail\n');
  assert.equal(apply('abc\n', '  \n', 'tail\n').out, 'abc\ntail\n');
  assert.equal(apply('', '', 'first\n').method, 'append');
  assert.deepEqual(placeBlock('abc', { search: '', replace: ' ' }, AIDER_MATCHERS), { ok: false, failure: 'empty' });
});

test('cascade: disabled matchers never place; one that would have is named', () => {
  const text = 'a\nconst  x = 1;\n';
  const o = placeBlock(text, { search: 'const x = 1;', replace: 'y' }, ['exact']);
  assert.deepEqual(o, { ok: false, failure: 'disabled', method: 'whitespace', span: { startLine: 2, endLine: 2 } });
  const fuzzyOnly = placeBlock(FILE, { search: 'return 42;', replace: 'return 1;' }, ['diff-match-patch']);
  assert.equal(fuzzyOnly.ok, false, 'a short search is never placed approximately');
});

test('cascade: an ambiguous step stops the cascade (a looser step never overrides it)', () => {
  // exact finds two; the whitespace step would find one (the second has a double space), but is never asked
  const text = 'go(a, b)\ngo(a, b)\ngo(a,  b)\n';
  const o = placeBlock(text, { search: 'go(a, b)', replace: 'x' }, AIDER_MATCHERS);
  assert.equal(!o.ok && o.failure, 'ambiguous');
  assert.equal(!o.ok && o.failure === 'ambiguous' && o.method, 'exact');
});

test('property: the exact step counts a placement\'s lines as the line index spans them', () => {
  const piece = fc.constantFrom('a', 'b', '\n', ' ', '\n\n', 'ab\n');
  fc.assert(
    fc.property(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.nat(), fc.nat({ max: 12 }), (parts, s0, len) => {
      const text = parts.join('');
      const start = s0 % text.length;
      const end = Math.min(text.length, start + len);
      assert.deepEqual(spanByCount(text, start, end), new LineIndex(text).span(start, end));
    }),
    { numRuns: 3000 },
  );
});
