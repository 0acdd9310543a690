// The interface a model reads: every tool says what it does, shows one example, and says what to do
// after an error; its input schema refuses unknown keys.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTRUCTIONS } from '../../src/mcp/instructions.js';
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

const NAVIGATION = ['fs_list', 'fs_search', 'fs_outline', 'fs_references'];

test('the navigation tools are in the hashline family, each with an output schema and a JSON example', () => {
  const hashline = selectTools(['hashline']).map((t) => t.name);
  for (const name of NAVIGATION) {
    assert.ok(hashline.includes(name), `${name} is selected by --tools hashline`);
    const t = ALL_TOOLS.find((x) => x.name === name)!;
    assert.equal(t.annotations.readOnlyHint, true, `${name} is read-only`);
    const example = /Example: (\{.*?\})(?: →|$)/m.exec(t.description);
    assert.ok(example, `${name}: the example is a JSON object`);
    assert.equal(t.input.safeParse(JSON.parse(example[1]!)).success, true, `${name}: its example is valid input`);
  }
  assert.deepEqual(selectTools(['boundary']).filter((t) => NAVIGATION.includes(t.name)), []);
});

test('the search and references descriptions say their hits are editable tagged lines', () => {
  for (const name of ['fs_search', 'fs_references']) {
    const d = ALL_TOOLS.find((x) => x.name === name)!.description;
    assert.match(d, /¶path#TAG/, name);
    assert.match(d, /fs_edit/, name);
  }
});

test('the server instructions explain the loop: find, edit from the tagged hits, roll back', () => {
  for (const name of [...NAVIGATION, 'fs_edit', 'fs_rollback']) assert.match(INSTRUCTIONS, new RegExp(`\\b${name}\\b`), name);
  assert.match(INSTRUCTIONS, /no re-read/);
  assert.ok(INSTRUCTIONS.length <= 1600, `instructions stay short (${INSTRUCTIONS.length})`);
});
