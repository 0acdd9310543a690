// The boundary-balance repair: a restated closing line below the range is dropped, a closing line
// the range deleted without restating is kept, each with the warning; nothing else is touched.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { piecesToLines, textLines } from '../../../src/core/edit/apply.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import * as msg from '../../../src/core/messages/edit.js';
import { decideEdit } from '../../../src/core/merge/recover.js';
import { computeTag } from '../../../src/core/text/tag.js';

const SRC = ['function f() {', '  if (x) {', '    a();', '  }', '  return 1;', '}', ''].join('\n');

/** Applies `ops` written against `read` to the live text `live` (the same text unless it drifted). */
function edit(ops: string, read = SRC, live = read) {
  const lines = textLines(live);
  const d = decideEdit({
    ops: parseEditOps(ops).ops,
    tag: computeTag(read),
    live: { text: live, lines, tag: computeTag(live) },
    versions: [{ tag: computeTag(read), text: read, seen: new Set() }],
  });
  return { text: piecesToLines(lines, d.pieces).join('\n') + '\n', warnings: d.warnings };
}

const lf = (...lines: string[]) => lines.join('\n') + '\n';

// Any closing line whose brackets make up the whole difference: `}`, `});`, `]);`, `})`.
const REPAIRS: { name: string; file: string; ops: string; want: string; action: 'dropped' | 'kept'; at: number }[] = [
  {
    name: 'a restated `});` below the range is dropped',
    file: lf('it(\'a\', () => {', '\tsetup();', '\trun();', '});', 'after();'),
    ops: 'replace 2..3:\n+\tsetup2();\n+\trun2();\n+});',
    want: lf('it(\'a\', () => {', '\tsetup2();', '\trun2();', '});', 'after();'),
    action: 'dropped',
    at: 2,
  },
  {
    name: 'a restated `]);` below the range is dropped',
    file: lf('call([', '  f(1),', ']);'),
    ops: 'replace 2:\n+  f(2),\n+]);',
    want: lf('call([', '  f(2),', ']);'),
    action: 'dropped',
    at: 2,
  },
  {
    name: 'a restated `})` below the range is dropped',
    file: lf('wrap(() => {', '  go();', '})'),
    ops: 'replace 2:\n+  stop();\n+})',
    want: lf('wrap(() => {', '  stop();', '})'),
    action: 'dropped',
    at: 2,
  },
  {
    name: 'an omitted `});` that ended the range is kept',
    file: lf('it(\'a\', () => {', '\tsetup();', '});', 'after();'),
    ops: 'replace 2..3:\n+\tsetup2();',
    want: lf('it(\'a\', () => {', '\tsetup2();', '});', 'after();'),
    action: 'kept',
    at: 2,
  },
  {
    name: 'an omitted `};` that was the whole range is kept after a balanced payload',
    file: lf('const handlers = {', '\ta() {', '\t\treturn 1;', '\t},', '};'),
    ops: 'replace 5..5:\n+\tb() {\n+\t\treturn 2;\n+\t},',
    want: lf('const handlers = {', '\ta() {', '\t\treturn 1;', '\t},', '\tb() {', '\t\treturn 2;', '\t},', '};'),
    action: 'kept',
    at: 5,
  },
];

for (const c of REPAIRS) {
  test(c.name, () => {
    const r = edit(c.ops, c.file);
    assert.equal(r.text, c.want);
    assert.deepEqual(r.warnings, [msg.balanceRepaired(c.at, c.action)]);
  });
}

test('the repair also runs when the edit is merged onto a file that drifted elsewhere', () => {
  const read = lf('import { x } from "y";', '', 'it(\'a\', () => {', '\tsetup();', '\trun();', '});', '',
    ...[1, 2, 3, 4, 5].map((n) => `function filler${n}() { return ${n}; }`), 'const tail = 0;', 'export { tail };');
  const live = read.replace('const tail = 0;', 'const tail = 99;');
  const r = edit('replace 4..5:\n+\tsetup2();\n+\trun2();\n+});', read, live);
  assert.equal(r.text.split('\n').filter((l) => l === '});').length, 1);
  assert.match(r.text, /\tsetup2\(\);\n\trun2\(\);\n\}\);\n/);
  assert.match(r.text, /const tail = 99;/);
  assert.ok(r.warnings.includes(msg.balanceRepaired(4, 'dropped')), r.warnings.join('\n'));
});

test('a restated closing line just below the range is dropped', () => {
  const r = edit('replace 3:\n+    b();\n+  }');
  assert.equal(r.text, SRC.replace('    a();', '    b();'));
  assert.deepEqual(r.warnings, [msg.balanceRepaired(3, 'dropped')]);
  assert.match(r.warnings[0]!, /^Auto-repaired a delimiter-balance mismatch in the replacement at line 3: /);
});

test('a closing line the range deleted without restating is kept', () => {
  const r = edit('replace 3..4:\n+    b();');
  assert.equal(r.text, SRC.replace('    a();', '    b();'));
  assert.deepEqual(r.warnings, [msg.balanceRepaired(3, 'kept')]);
});

test('no repair: balanced payloads, plans that balance across hunks, or more than one line off', () => {
  const cases = [
    'replace 3:\n+    b();', // balanced
    'replace 2..3:\n+  a();\nreplace 4:\n+  // end', // -1 and +1 across two hunks: the plan balances
    'replace 3:\n+    b();\n+  }\n+}', // two lines off
    'replace 3:\n+    b();\n+  ]', // a different closing line
    'replace 4:\n+  // no brace', // the range is the closing line itself: intended
    'replace 3:\n+    b();\n+  });', // `});` below would not be the whole difference (-2 against -1)
  ];
  for (const ops of cases) assert.deepEqual(edit(ops).warnings, [], ops);
  assert.equal(edit(cases[1]!).text, ['function f() {', '  a();', '  // end', '  return 1;', '}', ''].join('\n'));
});

test('a closing row indented differently from the line below is the agent fixing the file, not a repeat', () => {
  const broken = ['function f() {', '  if (x) {', '    return 1;', '}', ''].join('\n');
  const r = edit('replace 3:\n+    return 1;\n+  }', broken);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.text, ['function f() {', '  if (x) {', '    return 1;', '  }', '}', ''].join('\n'));
});
