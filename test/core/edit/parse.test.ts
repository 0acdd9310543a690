// The edit DSL parser, table-driven: every header form and separator, body rows, comments and
// envelopes, and every diagnostic with the DSL line it points at.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { printEditOps } from '../../../src/core/edit/print.js';
import * as msg from '../../../src/core/messages/edit.js';

const strip = (ops: readonly object[]) => ops.map((o) => ({ ...o, dslLine: undefined }));

const OK: Array<[string, string, object[]]> = [
  ['replace range', 'replace 2..3:\n+a\n+b', [{ kind: 'replace', start: 2, end: 3, rows: ['a', 'b'] }]],
  ['replace one line', 'replace 4:\n+x', [{ kind: 'replace', start: 4, end: 4, rows: ['x'] }]],
  ['replace with dash', 'replace 2-3:\n+a', [{ kind: 'replace', start: 2, end: 3, rows: ['a'] }]],
  ['replace with ellipsis', 'replace 2…3:\n+a', [{ kind: 'replace', start: 2, end: 3, rows: ['a'] }]],
  ['replace with spaced ..', 'replace 2 .. 3:\n+a', [{ kind: 'replace', start: 2, end: 3, rows: ['a'] }]],
  ['colon optional on replace', 'replace 2..3\n+a', [{ kind: 'replace', start: 2, end: 3, rows: ['a'] }]],
  ['delete one', 'delete 5', [{ kind: 'delete', start: 5, end: 5 }]],
  ['delete range', 'delete 5..9', [{ kind: 'delete', start: 5, end: 9 }]],
  ['delete range with dash', 'delete 5-9', [{ kind: 'delete', start: 5, end: 9 }]],
  ['insert before', 'insert before 3:\n+x', [{ kind: 'insert_before', line: 3, rows: ['x'] }]],
  ['insert after', 'insert after 3:\n+x', [{ kind: 'insert_after', line: 3, rows: ['x'] }]],
  ['insert after without colon', 'insert after 3\n+x', [{ kind: 'insert_after', line: 3, rows: ['x'] }]],
  ['insert head', 'insert head:\n+x', [{ kind: 'insert_head', rows: ['x'] }]],
  ['insert tail', 'insert tail:\n+x', [{ kind: 'insert_tail', rows: ['x'] }]],
  ['replace block', 'replace block 7:\n+fn x() {}', [{ kind: 'replace_block', line: 7, rows: ['fn x() {}'] }]],
  ['delete block', 'delete block 7', [{ kind: 'delete_block', line: 7 }]],
  ['+ rows verbatim (leading blanks, +, -, empty)', 'replace 1:\n+  indented\n++plus\n+-minus\n+', [
    { kind: 'replace', start: 1, end: 1, rows: ['  indented', '+plus', '-minus', ''] },
  ]],
  ['non-ASCII rows', 'insert head:\n+Ω ≠ ω 🙂', [{ kind: 'insert_head', rows: ['Ω ≠ ω 🙂'] }]],
  ['comments between hunks, envelope', '*** Begin Patch\n# first\ndelete 1\n# second\n\ninsert tail:\n+z\n*** End Patch\ngarbage', [
    { kind: 'delete', start: 1, end: 1 },
    { kind: 'insert_tail', rows: ['z'] },
  ]],
  ['*** Abort stops parsing', 'delete 1\n*** Abort\nreplace 2:', [{ kind: 'delete', start: 1, end: 1 }]],
  ['CRLF ops text', 'replace 1:\r\n+a\r\ndelete 3\r\n', [
    { kind: 'replace', start: 1, end: 1, rows: ['a'] },
    { kind: 'delete', start: 3, end: 3 },
  ]],
  ['interior blank body row kept, trailing blank dropped', 'replace 1:\n+a\n\n+b\n\ndelete 4', [
    { kind: 'replace', start: 1, end: 1, rows: ['a', '', 'b'] },
    { kind: 'delete', start: 4, end: 4 },
  ]],
  ['a copied ¶path#TAG header before the first hunk is skipped', '¶src/a.ts#1A2B\nreplace 1:\n+x', [{ kind: 'replace', start: 1, end: 1, rows: ['x'] }]],
  ['keywords are case-insensitive', 'REPLACE 1:\n+a\nInsert After 2:\n+b', [
    { kind: 'replace', start: 1, end: 1, rows: ['a'] },
    { kind: 'insert_after', line: 2, rows: ['b'] },
  ]],
];

for (const [name, source, expected] of OK) {
  test(`parse: ${name}`, () => {
    const plan = parseEditOps(source);
    assert.deepEqual(strip(plan.ops), strip(expected));
    assert.deepEqual(plan.warnings, []);
  });
}

test('parse: ops carry the DSL line they came from', () => {
  const plan = parseEditOps('# c\nreplace 1:\n+a\n\ndelete 3\ninsert tail:\n+t');
  assert.deepEqual(plan.ops.map((o) => o.dslLine), [2, 5, 6]);
});

test('parse: bare rows are auto-prefixed with a warning, comments inside a body become rows', () => {
  const plan = parseEditOps('replace 2..3:\n  return 1;\n# not a comment here\n+}\ndelete 9');
  assert.deepEqual(strip(plan.ops), strip([
    { kind: 'replace', start: 2, end: 3, rows: ['  return 1;', '# not a comment here', '}'] },
    { kind: 'delete', start: 9, end: 9 },
  ]));
  assert.deepEqual(plan.warnings, [msg.AUTO_PREFIXED]);
});

const ERR: Array<[string, string, string, string]> = [
  ['apply_patch Update File', 'replace 1:\n+a\n*** Update File: src/a.ts', 'edit_parse_error', `line 3: ${msg.applyPatchSentinel('*** Update File: src/a.ts')}`],
  ['unified diff hunk', '@@ -1,2 +1,3 @@', 'edit_parse_error', `line 1: ${msg.UNIFIED_DIFF_HEADER}`],
  ['@@ bracketed header', '@@ replace 1 @@', 'edit_parse_error', `line 1: ${msg.bracketedHunkHeader('@@ replace 1 @@')}`],
  ['bare number', 'delete 1\n5', 'edit_parse_error', `line 2: ${msg.bareNumberHeader('5')}`],
  ['bare number with colon', '5:\n+x', 'edit_parse_error', `line 1: ${msg.bareNumberHeader('5')}`],
  ['bare range', '5..7:\n+x', 'edit_parse_error', `line 1: ${msg.bareRangeHeader('5', '7')}`],
  ['- row', 'replace 1:\n-old\n+new', 'edit_parse_error', `line 2: ${msg.MINUS_ROW}`],
  ['+ row without a header', '+x', 'edit_parse_error', `line 1: ${msg.payloadWithoutHeader('+x')}`],
  ['a header after a hunk is not skipped', 'delete 1\n¶a.ts#1A2B', 'edit_parse_error', `line 2: ${msg.DELETE_TAKES_NO_BODY}`],
  ['bare row without a header', 'hello', 'edit_parse_error', `line 1: ${msg.payloadWithoutHeader('hello')}`],
  ['empty replace', 'replace 3:\ndelete 4', 'edit_parse_error', `line 1: ${msg.EMPTY_REPLACE}`],
  ['empty replace at end', 'delete 1\nreplace 3..4:', 'edit_parse_error', `line 2: ${msg.EMPTY_REPLACE}`],
  ['empty insert', 'insert after 3:', 'edit_parse_error', `line 1: ${msg.EMPTY_INSERT}`],
  ['empty insert head', 'insert head:\n\n', 'edit_parse_error', `line 1: ${msg.EMPTY_INSERT}`],
  ['empty replace block', 'replace block 3:', 'edit_parse_error', `line 1: ${msg.EMPTY_REPLACE_BLOCK}`],
  ['delete with colon', 'delete 3:', 'edit_parse_error', `line 1: ${msg.DELETE_TAKES_NO_BODY}`],
  ['delete with + body', 'delete 3\n+x', 'edit_parse_error', `line 2: ${msg.DELETE_TAKES_NO_BODY}`],
  ['delete with bare body', 'delete 3..4\nx', 'edit_parse_error', `line 2: ${msg.DELETE_TAKES_NO_BODY}`],
  ['delete block with colon', 'delete block 3:', 'edit_parse_error', `line 1: ${msg.DELETE_BLOCK_TAKES_NO_BODY}`],
  ['delete block with body', 'delete block 3\n+x', 'edit_parse_error', `line 2: ${msg.DELETE_BLOCK_TAKES_NO_BODY}`],
  ['end before start', 'replace 7..5:\n+x', 'edit_parse_error', `line 1: ${msg.rangeEndsBeforeStart(7, 5)}`],
  ['delete end before start', 'delete 1\ndelete 9-2', 'edit_parse_error', `line 2: ${msg.rangeEndsBeforeStart(9, 2)}`],
  ['line 0', 'delete 0', 'edit_parse_error', `line 1: ${msg.lineNumberNotPositive('0')}`],
  ['huge line number', 'delete 99999999999999999999', 'edit_parse_error', `line 1: ${msg.lineNumberTooLarge('99999999999999999999')}`],
  ['nothing to do', '# only a comment\n\n', 'edit_parse_error', `line 1: ${msg.NO_OPERATIONS}`],
  ['lone surrogate in a row', 'insert head:\n+bad \uDC99 byte', 'edit_parse_error', `line 2: ${msg.loneSurrogateRow()}`],
];

for (const [name, source, code, message] of ERR) {
  test(`parse error: ${name}`, () => {
    assert.throws(
      () => parseEditOps(source),
      (e: { code?: string; message?: string; details?: { dslLine?: number } }) => {
        assert.equal(e.code, code);
        assert.equal(e.message, message);
        assert.equal(e.details?.dslLine, Number(/^line (\d+):/.exec(message)![1]));
        return true;
      },
    );
  });
}

test('wire text of the parser matches the spec', () => {
  assert.equal(msg.EMPTY_REPLACE, '`replace N..M:` needs at least one `+TEXT` body row. To delete lines, use `delete N..M`.');
  assert.equal(msg.EMPTY_INSERT, '`insert` needs at least one `+TEXT` body row.');
  assert.equal(msg.DELETE_TAKES_NO_BODY, '`delete N..M` does not take body rows. Remove the body, or use `replace N..M:`.');
  assert.equal(msg.rangeEndsBeforeStart(5, 3), 'range 5..3 ends before it starts.');
  assert.ok(msg.AUTO_PREFIXED.startsWith('Auto-prefixed bare body row(s) with `+`.'));
});

test('print: every op kind prints to text that parses back to it', () => {
  const source = 'replace 2..3:\n+a\n+\nreplace 4:\n+b\ndelete 5\ndelete 6..7\ninsert before 8:\n+c\ninsert after 8:\n+d\ninsert head:\n+h\ninsert tail:\n+t\nreplace block 9:\n+e\ndelete block 12';
  const plan = parseEditOps(source);
  assert.equal(printEditOps(plan.ops), source);
  assert.deepEqual(parseEditOps(printEditOps(plan.ops)).ops, plan.ops);
});
