// The selection rule of `--tools`: the profiles hashline (the navigation tools included),
// navigation, boundary and all, tool names, and both mixed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { NAVIGATION_TOOLS, pickTools } from '../../src/tools/tool-select.js';

const names = (selection: string[] | undefined) => pickTools(selection, ALL_TOOLS).map((t) => t.name);
const FS = ALL_TOOLS.filter((t) => t.name.startsWith('fs_')).map((t) => t.name);
const FILE = ALL_TOOLS.filter((t) => t.name.startsWith('file_')).map((t) => t.name);

test('each profile lists its tools, in the registry order', () => {
  assert.deepEqual(names(['all']), ALL_TOOLS.map((t) => t.name));
  assert.deepEqual(names(undefined), ALL_TOOLS.map((t) => t.name));
  assert.deepEqual(names(['hashline']), FS);
  for (const n of NAVIGATION_TOOLS) assert.ok(FS.includes(n), `${n} is in the hashline profile`);
  assert.deepEqual(new Set(names(['navigation'])), new Set(NAVIGATION_TOOLS));
  assert.deepEqual(names(['boundary']), FILE);
});

test('profiles and names mix; an unknown one is refused with the known names', () => {
  assert.deepEqual(new Set(names(['navigation', 'fs_read', 'fs_edit'])), new Set([...NAVIGATION_TOOLS, 'fs_read', 'fs_edit']));
  assert.deepEqual(new Set(names(['boundary', 'fs_search'])), new Set([...FILE, 'fs_search']));
  assert.throws(() => names(['hashlines']), (e: { code?: string; message?: string }) => e.code === 'invalid_arguments' && /navigation, boundary, all/.test(e.message ?? ''));
});
