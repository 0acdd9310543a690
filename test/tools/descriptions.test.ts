// The interface a model reads: every tool says what it does, shows one example, and says what to do
// after an error; its input schema refuses unknown keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_TOOLS, selectTools } from '../../src/tools/registry.js';

test('every tool has a short description with one example and recovery advice', () => {
  assert.ok(ALL_TOOLS.length >= 1);
  for (const t of ALL_TOOLS) {
    assert.match(t.description, /Example/, `${t.name}: example`);
    assert.match(t.description, /error|stale|refus|re-read|retry|again/i, `${t.name}: what to do after an error`);
    assert.ok(t.description.length <= 1500, `${t.name}: description is short (${t.description.length})`);
    assert.ok(t.title.length > 0);
    assert.equal(t.annotations.openWorldHint, false);
  }
});

test('tool names are unique and follow their family prefix', () => {
  const names = ALL_TOOLS.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
  for (const t of ALL_TOOLS) assert.match(t.name, t.family === 'hashline' ? /^fs_/ : /^file_/);
});

test('every input schema refuses unknown keys', () => {
  for (const t of ALL_TOOLS) {
    const r = t.input.safeParse({ definitelyNotAKey: true });
    assert.equal(r.success, false, t.name);
    assert.ok(r.error!.issues.some((i) => i.code === 'unrecognized_keys'), `${t.name} reports the unknown key`);
  }
});

test('selectTools: families, names, and unknown names', () => {
  assert.deepEqual(selectTools(undefined).length, ALL_TOOLS.length);
  assert.ok(selectTools(['boundary']).every((t) => t.family === 'boundary'));
  assert.deepEqual(selectTools(['file_hash']).map((t) => t.name), ['file_hash']);
  assert.throws(() => selectTools(['nope']), (e: { code?: string }) => e.code === 'invalid_arguments');
});
