// Quotes that match from inside a line, as the edit-fidelity benchmark found agents send them: a
// one-line quote without its indentation whose replacement adds lines (they must keep the file's
// depth), and a quote that lost the first letter of its first word (it must not be placed inside
// that word). Each case is the benchmark's, reduced; a few neighbours pin what stays as it was.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeBlock } from '../../../src/core/aider/cascade.js';
import { matchEdit, matchStart } from '../../../src/core/aider/line-start.js';
import { AIDER_MATCHERS } from '../../../src/core/config/config-schema.js';
import { applyEdits } from '../../../src/core/text/text-edits.js';

function place(text: string, search: string, replace: string): { out: string; method: string } {
  const o = placeBlock(text, { search, replace }, AIDER_MATCHERS);
  assert.ok(o.ok, JSON.stringify(o));
  return { out: applyEdits(text, [o.placement.edit]), method: o.placement.method };
}

test('where a match starts: line, indentation, inside a word, after other text', () => {
  const text = 'function f() {\n    free(err);\n  a = 1; b = 2;\n';
  assert.equal(matchStart(text, 0), 'line');
  assert.equal(matchStart(text, text.indexOf('free')), 'indent');
  assert.equal(matchStart(text, 1), 'word');
  assert.equal(matchStart(text, text.indexOf('b = 2')), 'inside');
});

test('exact: a one-line quote without its indentation, replaced by several lines, keeps the depth (gznorm.c)', () => {
  const text = 'int main(void) {\n    if (ret)\n        fprintf(stderr, "error: %s\\n", err);\n    free(err);\n    return ret;\n}\n';
  const { out, method } = place(text, 'free(err);\n', 'free(err);\n// trace main\nfprintf(stderr, "main: step %d\\n", 1);\n');
  assert.equal(method, 'exact');
  assert.equal(out, text.replace('    free(err);\n', '    free(err);\n    // trace main\n    fprintf(stderr, "main: step %d\\n", 1);\n'));
  // a quote with part of the indentation: the rest is added to the replacement's lines that have the quote's
  const part = place(text, '  free(err);\n', '  free(err);\n  err = 0;\n');
  assert.equal(part.out, text.replace('    free(err);\n', '    free(err);\n    err = 0;\n'));
  // blank lines after the one quoted line say nothing about depth (upperLOWER.c)
  const loop = 'int main(void) {\n     FD_ZERO(&readers);\n\n     for (;;) {\n\n\t  FD_SET(1, &readers);\n     }\n}\n';
  assert.equal(place(loop, ' for (;;) {\n\n', ' fprintf(stderr, "step");\n for (;;) {\n\n').out, loop.replace('     for (;;) {\n', '     fprintf(stderr, "step");\n     for (;;) {\n'));
  // without the final newline, up to the end of the line: the same
  assert.equal(place(text, 'free(err);', 'free(err);\nerr = 0;').out, text.replace('    free(err);\n', '    free(err);\n    err = 0;\n'));
});

test('exact: a quote that lost its first letter is not placed inside the word; the fuzzy step replaces the whole line (headers.js)', () => {
  const text = [
    '/**',
    ' * @see https://fetch.spec.whatwg.org/#concept-headers-append',
    ' */',
    'function appendHeader (headers, name, value) {',
    '  // 1. Normalize value.',
    '  value = headerValueNormalize(value)',
    '}',
    '',
  ].join('\n');
  const search = 'unction appendHeader (headers, name, value) {\n  // 1. Normalize value.\n';
  const replace = 'function appendHeader (headers, name, value) {\n  // 1. Normalize value.\n  // trace appendHeader\n';
  const { out, method } = place(text, search, replace);
  assert.equal(method, 'diff-match-patch');
  assert.equal(out, text.replace('  // 1. Normalize value.\n', '  // 1. Normalize value.\n  // trace appendHeader\n'));
  // the same quote with a doubled inner space: the whitespace step does not place it inside the word either
  assert.equal(place(text, search.replace('appendHeader (', 'appendHeader  ('), replace).out, out);
});

test('fuzzy: a one-line near miss without its indentation keeps the depth of the lines it adds', () => {
  const text = 'def run(self):\n    total = compute(alpha, beta)\n    return total\n';
  const { out, method } = place(text, 'total = compute(alpha, betta)\n', 'total = compute(alpha, beta)\nlog(total)\n');
  assert.equal(method, 'diff-match-patch');
  assert.equal(out, 'def run(self):\n    total = compute(alpha, beta)\n    log(total)\n    return total\n');
});

test('unchanged: a quote found inside a word and elsewhere whole is still ambiguous; fragments after other text stay literal', () => {
  const text = '  account += 1;\n  count += 1;\n';
  const o = placeBlock(text, { search: 'count += 1;\n', replace: 'count += 2;\n' }, AIDER_MATCHERS);
  assert.equal(!o.ok && o.failure, 'ambiguous');
  assert.equal(place('  a = 1; b = 2;\n', 'b = 2;', 'b = 3;\nc = 4;').out, '  a = 1; b = 3;\nc = 4;\n');
  // a fragment at the start of a line's text that does not reach its end: replaced literally
  assert.equal(place('    call(a, b);\n', 'call(a', 'call(z').out, '    call(z, b);\n');
  assert.deepEqual(matchEdit('x\n', 0, 2, 'x\n', 'y\n'), { start: 0, end: 2, text: 'y\n' });
});
