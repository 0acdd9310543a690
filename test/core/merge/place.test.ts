// Stale edits placed by the text they were written against: a moved block, a copy that must not
// be edited, a block whose text now sits twice, formatter passes (re-indent, trailing blanks, tabs),
// the session's own earlier edit next to the target, and what a refusal says.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { piecesToLines, textLines } from '../../../src/core/edit/apply.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import * as msg from '../../../src/core/messages/edit.js';
import { decideEdit, type SessionVersion } from '../../../src/core/merge/recover.js';
import { computeTag } from '../../../src/core/text/tag.js';

const v = (text: string): SessionVersion => ({ tag: computeTag(text), text, seen: new Set(textLines(text).map((_, i) => i + 1)) });
const join = (lines: string[]) => `${lines.join('\n')}\n`;

function run(ops: string, read: string, live: string, versions: SessionVersion[] = [v(read)]) {
  const lines = textLines(live);
  const d = decideEdit({ ops: parseEditOps(ops).ops, tag: computeTag(read), live: { text: live, lines, tag: computeTag(live) }, versions });
  return { ...d, text: join(piecesToLines(lines, d.pieces)) };
}

function rejected(ops: string, read: string, live: string, versions?: SessionVersion[]): string {
  let message = '';
  assert.throws(
    () => run(ops, read, live, versions),
    (e: Error & { code?: string }) => {
      message = e.message;
      return e.code === 'edit_rejected';
    },
  );
  return message;
}

const ALPHA = ['function alpha() {', '  const a = 1;', '  const b = 2;', '  return a + b;', '}'];
const BETA = ['function beta() {', '  return 3;', '}'];
const GAMMA = ['function gamma() {', '  return 4;', '}'];

test('a block moved below another is edited where it is now, and the reply says so', () => {
  const read = join([...ALPHA, '', ...BETA, '', ...GAMMA]);
  const live = join([...BETA, '', ...GAMMA, '', ...ALPHA]);
  const r = run('replace 3:\n+  const b = 20;', read, live);
  assert.equal(r.text, live.replace('const b = 2;', 'const b = 20;'));
  assert.equal(r.route, 'merge');
  assert.equal(r.warnings[0], msg.RECOVERED_PREVIOUS_READ);
  assert.match(r.warnings[1]!, /^Re-anchored by text: .*\(line as read → line now: 2 → 10\)/);
});

test('a moved block whose text now sits twice is refused, naming both places', () => {
  const read = join([...ALPHA, '', ...BETA]);
  const live = join([...BETA, '', ...ALPHA, '', ...ALPHA]);
  const m = rejected('replace 3:\n+  const b = 20;', read, live);
  assert.match(m, /the text you read at line 3 now appears 2 times \(at lines 7, 13\)/);
  assert.match(m, /Next call: `fs_read` with line_range "2-12"/);
});

test('a copy pasted elsewhere, with drift at both ends: the original is edited, never the copy', () => {
  const body = ['function f() {', '  one();', '  two();', '  three();', '}'];
  const read = join(['top', 'x', ...body, 'y', 'bottom']);
  // no common head or tail: the copy's surroundings agree with the read text on neither side
  const live = join(['TOP', 'pasted', ...body, 'pasted too', 'x', ...body, 'y', 'BOTTOM']);
  const r = run('replace 5:\n+  TWO();', read, live);
  assert.equal(r.text, join(['TOP', 'pasted', ...body, 'pasted too', 'x', ...body.map((l) => l.replace('two', 'TWO')), 'y', 'BOTTOM']));
});

test('a copy that keeps one side of the original surroundings while the original keeps the other: refused', () => {
  const body = ['function f() {', '  one();', '  two();', '  three();', '}'];
  const read = join(['top', 'x', ...body, 'y', 'bottom']);
  const live = join(['TOP', 'x', ...body, 'pasted', ...body, 'y', 'BOTTOM']);
  assert.match(rejected('replace 5:\n+  TWO();', read, live), /now appears 2 times/);
});

test('a copy right next to the original is ambiguous (pasted above or below?): refused', () => {
  const body = ['function f() {', '  one();', '  two();', '}'];
  const read = join(['a', ...body, 'b']);
  const live = join(['a', ...body, ...body, 'b']);
  assert.match(rejected('replace 3:\n+  ONE();', read, live), /now appears 2 times/);
});

test('a block whose own lines were changed is refused even when moved', () => {
  const read = join([...ALPHA, '', ...BETA]);
  const live = join([...BETA, '', ...ALPHA.map((l) => l.replace('const b = 2;', 'const b = 7;'))]);
  assert.match(rejected('replace 3:\n+  const b = 20;', read, live), /line 3 changed or was deleted since your read \(you read: `const b = 2;`\)/);
});

test('formatter: a re-indented file takes the rows re-indented the same way', () => {
  const read = join(['def f(x):', '  if x:', '    return 1', '  return 2', '', 'def g():', '  pass']);
  const live = read.replace(/^ +/gm, (s) => s + s);
  const r = run('replace 3:\n+    y = x + 1\n+    return y', read, live);
  assert.equal(r.text, live.replace('        return 1', '        y = x + 1\n        return y'));
  assert.match(r.warnings.join('\n'), /your rows were re-indented the same way/);
});

test('formatter: tabs turned into spaces', () => {
  const read = join(['func f() {', '\tif x {', '\t\treturn 1', '\t}', '\treturn 2', '}']);
  const live = read.replace(/\t/g, '    ');
  const r = run('insert after 3:\n+\t\tlog()', read, live);
  assert.equal(r.text, live.replace('        return 1\n', '        return 1\n        log()\n'));
});

test('formatter: trailing blanks trimmed (the tag is the same): rows as sent, kept lines as they are', () => {
  const read = join(['a = 1  ', 'b = 2 ', 'c = 3', 'd = 4\t']);
  const live = read.replace(/[ \t]+$/gm, '');
  assert.equal(computeTag(read), computeTag(live));
  const r = run('replace 2:\n+b = 20 ', read, live);
  assert.equal(r.text, 'a = 1\nb = 20 \nc = 3\nd = 4\n');
  assert.match(r.warnings.join('\n'), /trailing blanks/);
});

test('a line re-indented unlike its neighbours (a semantic change in Python) is refused', () => {
  const read = join(['if x:', '    a()', '    b()', 'c()']);
  const live = join(['if x:', '    a()', 'b()', 'c()']);
  assert.match(rejected('replace 3:\n+    b2()', read, live), /re-indented unlike the lines around them/);
});

test('a re-indent that could be a shift or a doubling, with rows at another level: refused', () => {
  const read = join(['  a', '  b', '  c']);
  const live = join(['    a', '    b', '    c']);
  // 2 → 4 spaces: either "add 2" or "double"; a row at 4 spaces would become 6 or 8
  assert.match(rejected('replace 2:\n+    deeper', read, live), /re-indented unlike/);
  // a row at the window's own level is the same under both rules
  assert.equal(run('replace 2:\n+  B', read, live).text, join(['    a', '    B', '    c']));
  // an unindented line in the window that kept its place rules the shift out: the file was re-indented by doubling
  const r = run('replace 2:\n+    deeper', join(['x', ...textLines(read), 'y']), join(['x', ...textLines(live), 'y']));
  assert.equal(r.text, join(['x', '        deeper', '    b', '    c', 'y']));
});

test('a neighbour that may be another line with the same text sets no re-indentation: refused, not guessed', () => {
  // the two lines below the first moved under it, then every indentation was doubled: the line above
  // the edited one reads "fi" as before, but at 8 spaces it is line 1 doubled, not line 3 (2 spaces)
  // re-indented to 4 times its width, and the rows must not go in at 16 spaces
  const read = join(['    fi', 'fi', '  fi', 'v88();', 'return x;', 'v844();']);
  const live = join(['        fi', 'v88();', 'return x;', 'fi', '    fi', 'v844();']);
  assert.match(rejected('replace 4:\n+    fi', read, live), /re-indented unlike the lines around them/);
});

test('a whitespace-only change that makes other lines read exactly as the edited ones did, and drift: refused, not guessed', () => {
  const read = join(['class A:', '  def f(self):', '    x = 1', '    return x', '    pass', '', 'def g():', '  x = 1', '  return x', '  pass']);
  // doubled: f's body moves to 8 spaces; g's body now reads exactly as f's did; and a line was
  // added at the end, so the file is no longer the read text re-indented line for line
  const live = `${read.replace(/^ +/gm, (s) => s + s)}h()\n`;
  assert.match(rejected('replace 4:\n+    return x + 1', read, live), /now appears/);
});

test('the whole file re-indented line for line by one rule: the lines are where they were, even where their old text now sits elsewhere', () => {
  const read = join(['class A:', '  def f(self):', '    x = 1', '    return x', '    pass', '', 'def g():', '  x = 1', '  return x', '  pass']);
  // doubled: g's body now reads exactly as f's did, but every line still reads as the one read at its number
  const live = read.replace(/^ +/gm, (s) => s + s);
  const r = run('replace 4:\n+    return x + 1', read, live);
  assert.equal(r.text, live.replace('        return x\n', '        return x + 1\n'));
  assert.match(r.warnings.join('\n'), /re-indent/);
});

test('the whole file re-indented line for line: a docstring quote whose old text sits elsewhere now, rows doubled like the file', () => {
  const read = join(['def g():', '    """', '    g doc', '    """', '    return 0', 'class A:', '    def f(self):', '        """', '        f doc', '        """', '        return 1']);
  const live = read.replace(/^ +/gm, (s) => s + s);
  const r = run('insert after 8:\n+        More about f.\n+', read, live);
  assert.equal(r.text, live.replace('                f doc\n', '                More about f.\n\n                f doc\n'));
});

test('the whole file re-indented line for line, but rows the rule cannot map (a tab in a file of spaces): refused', () => {
  const read = join(['def f():', '  x = 1', '  return x']);
  const live = read.replace(/^ +/gm, (s) => s + s);
  assert.match(rejected('replace 2:\n+\tx = 2', read, live), /re-indented unlike/);
});

test('session chain: the session inserted lines right above the target; a range hunk needs only its own lines', () => {
  const read = join(['a', 'b', 'c', 'd', 'e']);
  const edited = join(['a', 'b', 'new 1', 'new 2', 'c', 'd', 'e']);
  const r = run('replace 3:\n+C', read, edited, [v(read), v(edited)]);
  assert.equal(r.route, 'chain');
  assert.deepEqual(r.warnings, [msg.RECOVERED_BY_REPLAY]);
  assert.equal(r.text, join(['a', 'b', 'new 1', 'new 2', 'C', 'd', 'e']));
});

test('session chain: an insertion next to the session own change is refused (after line N, or before the line after it?)', () => {
  const read = join(['a', 'b', 'c', 'd']);
  const edited = join(['a', 'B!', 'c', 'd']);
  assert.match(rejected('insert after 2:\n+x', read, edited, [v(read), v(edited)]), /line 2 changed or was deleted/);
});

test('the same drift from outside the session keeps the one-line margin: refused', () => {
  const read = join(['a', 'b', 'c', 'd', 'e']);
  const live = join(['a', 'b', 'new 1', 'c', 'd', 'e']);
  const m = rejected('replace 3:\n+C', read, live);
  assert.match(m, /lines were inserted or deleted inside lines 2-4 since your read/);
  assert.match(m, /^Edit rejected: file changed between read and edit\.\n/);
});

test('hunks that each find their place but now meet are refused', () => {
  const read = join(['a', 'b', 'c', 'd', 'e', 'f']);
  // b..c moved to just above e: `replace 2..3` and `insert before 5` now touch the same spot
  const live = join(['a', 'd', 'b', 'c', 'e', 'f']);
  assert.throws(() => run('replace 2..3:\n+B\ninsert before 5:\n+x', read, live), (e: Error & { code?: string }) => e.code === 'edit_rejected');
});
