// Blocks applied in order to a text in its own line endings: a CRLF (or lone CR) file stays so,
// untouched lines keep their own endings in a mixed file, and the line sources read off the edits
// give the right diff.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyBlocks } from '../../../src/core/aider/apply-blocks.js';
import { AIDER_MATCHERS } from '../../../src/core/config/config-schema.js';
import { rewriteDiff } from '../../../src/core/text/rewrite-diff.js';

test('a CRLF text is matched on its LF form and written back in CRLF, the replacement too', () => {
  const raw = 'one\r\ntwo\r\nthree\r\n';
  const r = applyBlocks(raw, '\r\n', [{ search: 'two\nthree\n', replace: 'TWO\nTHREE\nFOUR\n' }], AIDER_MATCHERS);
  assert.equal(r.ok, true);
  assert.equal(r.ok && r.raw, 'one\r\nTWO\r\nTHREE\r\nFOUR\r\n');
  // a search sent in CRLF works the same
  const crlf = applyBlocks(raw, '\r\n', [{ search: 'two\r\n', replace: '2\r\n' }], AIDER_MATCHERS);
  assert.equal(crlf.ok && crlf.raw, 'one\r\n2\r\nthree\r\n');
});

test('a mixed file: lines the block does not touch keep their own endings; new ones get the first ending', () => {
  const raw = 'a\r\nb\nc\r\nd';
  const r = applyBlocks(raw, '\r\n', [{ search: 'c\n', replace: 'C1\nC2\n' }], AIDER_MATCHERS);
  assert.equal(r.ok && r.raw, 'a\r\nb\nC1\r\nC2\r\nd');
  const cr = applyBlocks('x\ry\rz\r', '\r', [{ search: 'y', replace: 'Y\nY2' }], AIDER_MATCHERS);
  assert.equal(cr.ok && cr.raw, 'x\rY\rY2\rz\r');
});

test('blocks apply in order, each on the result of the one before; the failing one is named with its text', () => {
  const raw = 'alpha\nbeta\n';
  const r = applyBlocks(raw, '\n', [{ search: 'alpha', replace: 'gamma' }, { search: 'gamma\nbeta', replace: 'delta' }], AIDER_MATCHERS);
  assert.equal(r.ok && r.raw, 'delta\n');
  const bad = applyBlocks(raw, '\n', [{ search: 'alpha', replace: 'beta' }, { search: 'beta', replace: 'x' }], AIDER_MATCHERS);
  assert.equal(bad.ok, false);
  assert.equal(!bad.ok && bad.operation, 2);
  assert.equal(!bad.ok && bad.failure.failure, 'ambiguous');
  assert.equal(!bad.ok && bad.lf, 'beta\nbeta\n');
});

test('the diff read off the line sources equals the generic diff', () => {
  const raw = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\r\n') + '\r\n';
  const r = applyBlocks(raw, '\r\n', [{ search: 'line 5\n', replace: 'five\n' }, { search: 'line 30\nline 31\n', replace: '' }], AIDER_MATCHERS);
  assert.ok(r.ok);
  if (!r.ok) return;
  const fromSources = rewriteDiff('f.txt', raw, r.raw, r.sources).diff;
  const generic = rewriteDiff('f.txt', raw, r.raw).diff;
  assert.equal(fromSources, generic);
});
