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

function edit(ops: string, text = SRC) {
  const lines = textLines(text);
  const d = decideEdit({
    ops: parseEditOps(ops).ops,
    tag: computeTag(text),
    live: { text, lines, tag: computeTag(text) },
    versions: [{ tag: computeTag(text), text, seen: new Set() }],
  });
  return { text: piecesToLines(lines, d.pieces).join('\n') + '\n', warnings: d.warnings };
}

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
