// Stale-tag recovery: the direct path only for a recorded text, head/tail on a stale tag, the
// 3-way move from the tagged snapshot, the session-chain fallback, the unseen-anchor warning,
// rejections with their exact text, a brute-forced tag collision, and a property: a stale edit
// that overlaps or borders the drift never lands.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { piecesToLines, textLines } from '../../../src/core/edit/apply.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import * as msg from '../../../src/core/messages/edit.js';
import { decideEdit, type SessionVersion } from '../../../src/core/merge/recover.js';
import { mismatchContext } from '../../../src/core/merge/mismatch.js';
import { applyHunks } from '../../../src/core/edit/apply.js';
import { shapeOf } from '../../../src/core/merge/edit-shape.js';
import { computeTag } from '../../../src/core/text/tag.js';

const v = (text: string, seen: number[] = textLines(text).map((_, i) => i + 1)): SessionVersion => ({ tag: computeTag(text), text, seen: new Set(seen) });

function run(ops: string, tag: string, liveText: string, versions: SessionVersion[], extra: Pick<Parameters<typeof decideEdit>[0], 'liveUnrecordable' | 'ownEdits'> = {}) {
  const live = { text: liveText, lines: textLines(liveText), tag: computeTag(liveText) };
  const d = decideEdit({ ops: parseEditOps(ops).ops, tag, live, versions, ...extra });
  return { ...d, text: piecesToLines(live.lines, d.pieces).join('\n') + '\n' };
}

const READ = 'a\nb\nc\nd\ne\nf\ng\n';

test('direct: the live text is the recorded version with that tag', () => {
  const r = run('replace 3:\n+C', computeTag(READ).toLowerCase(), READ, [v(READ)]);
  assert.equal(r.route, 'direct');
  assert.deepEqual(r.warnings, []);
  assert.equal(r.text, 'a\nb\nC\nd\ne\nf\ng\n');
});

test('a tag that is not from this session is refused with the spec text', () => {
  const other = 'zzz\n';
  assert.throws(() => run('replace 1:\n+x', computeTag(READ), READ, [v(other)]), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'tag_unknown');
    assert.equal(e.message, msg.notFromSession(computeTag(READ), computeTag(READ)));
    assert.match(e.message, /^Edit rejected: hash #[0-9A-F]{4} is not from this session\.\n/);
    assert.match(e.message, /never invent the tag and never reuse one from a prior session\.$/);
    return true;
  });
  // with no history at all, too: a tag comes from a read
  assert.throws(() => run('delete 1', computeTag(READ), READ, []), { name: 'HashlineError' });
  // head/tail-only edits need a known tag as well
  assert.throws(() => run('insert tail:\n+x', 'ABCD', READ, [v(READ)]), (e: Error & { code?: string }) => e.code === 'tag_unknown');
});

test('a live text too large for the history applies on a tag match alone', () => {
  const r = run('delete 1', computeTag(READ), READ, [], { liveUnrecordable: true });
  assert.equal(r.route, 'direct');
});

test('stale, head/tail only: applied on the live text with the warning', () => {
  const live = 'new top\n' + READ;
  const r = run('insert head:\n+H\ninsert tail:\n+T', computeTag(READ), live, [v(READ)]);
  assert.equal(r.route, 'head_tail');
  assert.deepEqual(r.warnings, [msg.HEAD_TAIL_ON_STALE]);
  assert.equal(r.text, 'H\nnew top\n' + READ + 'T\n');
});

test('stale: an external insert above the target shifts the edit onto the right line', () => {
  const live = 'x1\nx2\n' + READ;
  const r = run('replace 5:\n+E\ninsert after 6:\n+after f', computeTag(READ), live, [v(READ)]);
  assert.equal(r.route, 'merge');
  assert.deepEqual(r.warnings, [msg.RECOVERED_PREVIOUS_READ]);
  assert.equal(r.text, 'x1\nx2\na\nb\nc\nd\nE\nf\nafter f\ng\n');
});

test('stale: from an earlier snapshot of this session', () => {
  const edited = 'a\nb\nc\nd\ne\nf\nG\n';
  const r = run('replace 2:\n+B', computeTag(READ), edited, [v(READ), v(edited)]);
  assert.equal(r.route, 'merge');
  assert.deepEqual(r.warnings, [msg.RECOVERED_EARLIER_SNAPSHOT]);
  assert.equal(r.text, 'a\nB\nc\nd\ne\nf\nG\n');
});

test('session-chain fallback: a prior edit changed a neighbour of the re-targeted line', () => {
  const edited = 'a\nb\nC!\nd\ne\nf\ng\n';
  const r = run('replace 4:\n+D', computeTag(READ), edited, [v(READ), v(edited)]);
  assert.equal(r.route, 'chain');
  assert.deepEqual(r.warnings, [msg.RECOVERED_BY_REPLAY]);
  assert.equal(r.text, 'a\nb\nC!\nD\ne\nf\ng\n');
});

/** The session's own edit of `text`, as fs_edit applies and journals it: the new text and the lookup of its line map. */
function ownEdit(text: string, ops: string) {
  const d = decideEdit({ ops: parseEditOps(ops).ops, tag: computeTag(text), live: { text, lines: textLines(text), tag: computeTag(text) }, versions: [v(text)] });
  const after = piecesToLines(textLines(text), d.pieces).join('\n') + '\n';
  const shape = shapeOf(textLines(text).length, d.hunks, applyHunks(textLines(text), d.hunks))!;
  return { after, ownEdits: (from: string) => (from === text ? [shape] : null) };
}

test("the session's own edit rewrote or deleted the line above the gap: the edit is carried through it exactly", () => {
  // (the shapes of the refusals the fidelity benchmark met before this rule: each is refused by text alone)
  const cases: Array<[prior: string, ours: string, want: string]> = [
    ['replace 3:\n+c\n+c2', 'insert after 3:\n+mine\ndelete 5', 'a\nb\nc\nc2\nmine\nd\nf\ng\n'],
    ['delete 3', 'insert after 3:\n+mine', 'a\nb\nmine\nd\ne\nf\ng\n'],
    ['delete 4', 'delete 2\ninsert after 3:\n+mine', 'a\nc\nmine\ne\nf\ng\n'],
  ];
  for (const [prior, ours, want] of cases) {
    const { after, ownEdits } = ownEdit(READ, prior);
    assert.throws(() => run(ours, computeTag(READ), after, [v(READ), v(after)]), (e: Error & { code?: string }) => e.code === 'edit_rejected', `${prior} / ${ours}`);
    const r = run(ours, computeTag(READ), after, [v(READ), v(after)], { ownEdits });
    assert.equal(r.route, 'carried');
    assert.deepEqual(r.warnings, [msg.RECOVERED_EARLIER_SNAPSHOT]);
    assert.equal(r.text, want, `${prior} / ${ours}`);
  }
});

test("carried by what the session's edit did, where the text sits twice", () => {
  const read = 'k\nif\nA\n}\nY\nk\nif\nA\n}\nY\n';
  const { after, ownEdits } = ownEdit(read, 'delete 10');
  // refused by text: "A }" sits at two places, and what is around each agrees as far either way
  assert.throws(() => run('delete 8..9', computeTag(read), after, [v(read), v(after)]), (e: Error & { code?: string }) => e.code === 'edit_rejected');
  assert.equal(run('delete 8..9', computeTag(read), after, [v(read), v(after)], { ownEdits }).text, 'k\nif\nA\n}\nY\nk\nif\n');
});

test("no place through the session's own edit: the rules by text decide, as before", () => {
  const { after, ownEdits } = ownEdit(READ, 'insert after 3:\n+n');
  // an insertion at the gap the session's edit inserted at has no order: refused
  assert.throws(() => run('insert after 3:\n+mine', computeTag(READ), after, [v(READ), v(after)], { ownEdits }), (e: Error & { code?: string }) => e.code === 'edit_rejected');
  // a line the session rewrote is re-targeted by the session-chain fallback (its text is unchanged)
  const rewrite = ownEdit(READ, 'replace 3:\n+c\n+c2');
  const r = run('replace 3:\n+C', computeTag(READ), rewrite.after, [v(READ), v(rewrite.after)], { ownEdits: rewrite.ownEdits });
  assert.equal(r.route, 'chain');
  assert.equal(r.text, 'a\nb\nC\nc2\nd\ne\nf\ng\n');
  void ownEdits;
});

test('no chain fallback when the tag is the newest version (the drift is external)', () => {
  const live = 'a\nb\nC!\nd\ne\nf\ng\n';
  assert.throws(() => run('replace 4:\n+D', computeTag(READ), live, [v(READ)]), (e: Error & { code?: string }) => e.code === 'edit_rejected');
});

test('unseen anchors are named in a warning', () => {
  const live = 'top\n' + READ;
  const r = run('replace 2:\n+B\ndelete 6', computeTag(READ), live, [v(READ, [1, 2, 3])]);
  assert.deepEqual(r.warnings, [msg.RECOVERED_PREVIOUS_READ, msg.unseenAnchors([6])]);
  assert.equal(msg.unseenAnchors([6, 9]), 'Edit anchors target lines 6, 9 which were not surfaced by the preceding tool output; verify the diff against the current file.');
});

test('rejection: the spec text, what changed and the next call, then MISMATCH_CONTEXT = 2 windows', () => {
  const live = 'a\nb\nc\nD!\ne\nf\ng\nh\ni\nj\nk\nl\n';
  const read = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n';
  assert.throws(() => run('replace 4:\n+D\ndelete 11', computeTag(read), live, [v(read)]), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'edit_rejected');
    assert.equal(
      e.message,
      [
        'Edit rejected: file changed between read and edit.',
        `Section is bound to #${computeTag(read)}, but the current file hashes to #${computeTag(live)}. If a prior edit in this session modified this file, copy the ¶path#newhash header from that edit's response; otherwise re-read the file with \`fs_read\` to refresh the tag before retrying.`,
        'What changed since your read:',
        '- the hunk on ops line 1: line 4 changed or was deleted since your read (you read: `d`); the lines around it are now near line 4.',
        'Next call: `fs_read` with line_range "1-9" (or the whole file) to see those lines as they are now, then `fs_edit` with the tag that read returns.',
        '',
        '...',
        '2| b',
        '3| c',
        '*4| D!',
        '5| e',
        '6| f',
        '...',
        '9| i',
        '10| j',
        '*11| k',
        '12| l',
      ].join('\n'),
    );
    return true;
  });
  assert.equal(mismatchContext(['x', 'y'], [1]), '*1| x\n2| y');
});

test('collision: a live text with the same tag as a different snapshot never takes the direct path', () => {
  const make = (n: number) => `alpha\nbeta\nvalue = ${n}\ngamma\ndelta\nepsilon\n`;
  const byTag = new Map<string, number>();
  let pair: [number, number] | undefined;
  for (let n = 0; pair === undefined; n++) {
    const t = computeTag(make(n));
    const prior = byTag.get(t);
    if (prior !== undefined) pair = [prior, n];
    else byTag.set(t, n);
  }
  const [read, live] = [make(pair[0]), make(pair[1])];
  assert.notEqual(read, live);
  assert.equal(computeTag(read), computeTag(live));
  const tag = computeTag(read);
  // The agent edits the line it read: that line differs in the live text, so no safe merge exists.
  assert.throws(() => run('replace 3:\n+value = 999', tag, live, [v(read)]), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'edit_rejected');
    assert.match(e.message, new RegExp(`Section is bound to #${tag}, but the current file hashes to #${tag}\\.`));
    return true;
  });
  // An edit away from the difference is merged, and says so.
  const r = run('replace 6:\n+EPSILON', tag, live, [v(read)]);
  assert.equal(r.route, 'merge');
  assert.deepEqual(r.warnings, [msg.RECOVERED_PREVIOUS_READ]);
  assert.equal(r.text, live.replace('epsilon', 'EPSILON'));
  // The direct path still applies when the live text is the one that was read.
  assert.equal(run('replace 3:\n+v', tag, read, [v(read)]).route, 'direct');
});

test('property: a stale edit that overlaps or borders the drift never lands', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 3, max: 30 }),
      fc.nat(),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 3 }),
      fc.nat(),
      fc.integer({ min: 0, max: 2 }),
      fc.constantFrom('replace', 'delete', 'before', 'after'),
      (n, a0, driftLen, newLen, s0, editLen, kind) => {
        const read = Array.from({ length: n }, (_, i) => `line ${i}`);
        const a = a0 % n;
        const b = Math.min(n - 1, a + driftLen); // drift replaces read[a..b] (0-based)
        fc.pre(newLen > 0 || b >= a);
        const live = [...read.slice(0, a), ...Array.from({ length: newLen }, (_, k) => `drift ${k}`), ...read.slice(b + 1)];
        // an edit near the drifted range a..b; only those that meet it (with one neighbour) are kept
        const s = Math.max(1, Math.min(n, a + 1 - editLen + (s0 % (b - a + 1 + editLen))));
        const e = Math.min(n, s + editLen);
        const ops =
          kind === 'replace' ? `replace ${s}..${e}:\n+EDIT` : kind === 'delete' ? `delete ${s}..${e}` : `insert ${kind} ${s}:\n+EDIT`;
        // 0-based: a range s-1..e-1 with one neighbour each side; an insert's gap and its two neighbours
        const touches =
          kind === 'replace' || kind === 'delete' ? s - 2 <= b && e >= a : kind === 'before' ? s - 1 >= a && s - 1 <= b + 1 : s - 1 >= a - 1 && s - 1 <= b;
        fc.pre(touches);
        const readText = read.join('\n') + '\n';
        const liveText = live.length ? live.join('\n') + '\n' : '';
        fc.pre(readText !== liveText);
        assert.throws(
          () => run(ops, computeTag(readText), liveText, [v(readText)]),
          (err: Error & { code?: string }) => err.code === 'edit_rejected',
        );
      },
    ),
    { numRuns: 1000 },
  );
});

test('property: a stale edit away from the drift lands where it was aimed', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 4, max: 30 }),
      fc.nat(),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 0, max: 3 }),
      fc.nat(),
      fc.integer({ min: 0, max: 2 }),
      fc.constantFrom('replace', 'delete', 'before', 'after'),
      (n, a0, driftLen, newLen, s0, editLen, kind) => {
        const read = Array.from({ length: n }, (_, i) => `line ${i}`);
        const a = a0 % n;
        const b = Math.min(n - 1, a + driftLen);
        const drift = Array.from({ length: newLen }, (_, k) => `drift ${k}`);
        const s = (s0 % n) + 1;
        const e = Math.min(n, s + editLen);
        // keep only edits that stay clear of the drift by at least one unchanged line
        const clear = kind === 'replace' || kind === 'delete' ? e < a || s - 2 > b : kind === 'before' ? s - 1 < a || s - 2 > b : s < a || s - 1 > b;
        fc.pre(clear);
        const edited = read.map((line, i) => {
          const ln = i + 1;
          if ((kind === 'replace' || kind === 'delete') && ln >= s && ln <= e) return ln === s && kind === 'replace' ? ['EDIT'] : [];
          if (kind === 'before' && ln === s) return ['EDIT', line];
          if (kind === 'after' && ln === s) return [line, 'EDIT'];
          return [line];
        });
        const expected = [...edited.slice(0, a).flat(), ...drift, ...edited.slice(b + 1).flat()];
        const live = [...read.slice(0, a), ...drift, ...read.slice(b + 1)];
        const ops = kind === 'replace' ? `replace ${s}..${e}:\n+EDIT` : kind === 'delete' ? `delete ${s}..${e}` : `insert ${kind} ${s}:\n+EDIT`;
        const readText = read.join('\n') + '\n';
        const liveText = live.length ? live.join('\n') + '\n' : '';
        fc.pre(readText !== liveText);
        const r = run(ops, computeTag(readText), liveText, [v(readText)]);
        assert.equal(r.route, 'merge');
        assert.deepEqual(piecesToLines(textLines(liveText), r.pieces), expected);
      },
    ),
    { numRuns: 1000 },
  );
});
