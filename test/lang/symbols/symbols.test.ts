// A symbol read and a block read on a fixture of every language of the registry.

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { resolveBlock } from '../../../src/lang/symbols/blocks.js';
import { LANGUAGES, languageForPath, parseWith } from '../../../src/lang/grammar/registry.js';
import { findSymbol } from '../../../src/lang/symbols/symbols.js';
import { REPO } from '../../helpers/mcp-client.js';

const DIR = path.join(REPO, 'test/fixtures/lang');

// fixture → [symbol, definition lines, a line inside it that starts a smaller block, that block]
const TABLE: Record<string, [string, [number, number], number, [number, number] | null]> = {
  'sample.js': ['greet', [9, 12], 10, [10, 10]],
  'sample.ts': ['greet', [7, 10], 8, [8, 8]],
  'sample.tsx': ['greet', [5, 9], 6, [6, 8]],
  'sample.py': ['greet', [9, 11], 10, [10, 10]],
  'sample.rs': ['greet', [7, 10], 8, [8, 8]],
  'sample.go': ['greet', [9, 12], 10, [10, 10]],
  'Sample.java': ['greet', [6, 9], 7, [7, 7]],
  'sample.c': ['greet', [7, 11], 9, [9, 9]],
  'sample.cpp': ['greet', [10, 13], 11, [11, 11]],
  'sample.cs': ['greet', [7, 11], 9, [9, 9]],
  'sample.rb': ['greet', [9, 12], 10, [10, 10]],
  'sample.php': ['greet', [8, 12], 10, [10, 10]],
  'sample.kt': ['greet', [7, 10], 8, [8, 8]],
  'sample.swift': ['greet', [7, 10], 8, [8, 8]],
  'sample.sh': ['greet', [4, 7], 5, [5, 5]],
  'sample.json': ['greet', [3, 6], 4, [4, 4]],
  'sample.yaml': ['greet', [2, 4], 3, [3, 3]],
  'sample.toml': ['greet', [3, 6], 4, [4, 4]],
  'sample.html': ['greet', [4, 6], 5, [5, 5]],
  'sample.css': ['.greet', [5, 8], 6, [6, 6]],
  'sample.scala': ['greet', [8, 11], 9, [9, 9]],
  'sample.lua': ['greet', [7, 10], 8, [8, 8]],
  'sample.dart': ['greet', [7, 10], 8, [8, 8]],
  'sample.ex': ['greet', [6, 9], 7, [7, 7]],
  'sample.hs': ['greet', [5, 8], 6, [6, 8]],
  'sample.sql': ['greet', [5, 8], 6, [6, 6]],
  'sample.md': ['greet', [5, 9], 7, [7, 8]],
};

test('every registered language has a fixture', () => {
  const covered = new Set(Object.keys(TABLE).map((f) => languageForPath(f)!.id));
  for (const l of LANGUAGES) assert.ok(covered.has(l.id), `fixture for ${l.id}`);
  assert.deepEqual(readdirSync(DIR).sort(), Object.keys(TABLE).sort());
});

for (const [file, [symbol, def, inner, innerBlock]] of Object.entries(TABLE)) {
  test(`symbol and block reads: ${file}`, () => {
    const text = readFileSync(path.join(DIR, file), 'utf8');
    const lang = languageForPath(file)!;
    const match = findSymbol(lang, parseWith(lang, text), symbol);
    assert.ok(match, `${symbol} found in ${file}`);
    assert.deepEqual([match.start, match.end], def, `${file} definition lines`);
    assert.equal(findSymbol(lang, parseWith(lang, text), 'noSuchSymbolAnywhere'), null);
    const block = resolveBlock(file, text, inner);
    assert.deepEqual(block && [block.start, block.end], innerBlock, `${file} block at ${inner}`);
    // the block starting on the definition's first line covers at least its first line
    const top = resolveBlock(file, text, def[0]);
    assert.ok(top && top.start === def[0], `${file} block at ${def[0]}`);
  });
}

test('outermost definition wins; imports and calls are not definitions', () => {
  const ts = "import { greet } from './g';\ngreet();\nexport class greet {\n  greet() {}\n}\n";
  const lang = languageForPath('a.ts')!;
  assert.deepEqual(findSymbol(lang, parseWith(lang, ts), 'greet'), { start: 3, end: 5, kind: 'class_declaration' });
  const sh = 'greet world\ngreet() {\n  echo hi\n}\n';
  const bash = languageForPath('a.sh')!;
  assert.deepEqual(findSymbol(bash, parseWith(bash, sh), 'greet'), { start: 2, end: 4, kind: 'function_definition' });
});

test('a C prototype counts only when there is no definition; decorators belong to the function', () => {
  const c = 'int greet(void);\nint x;\nint greet(void)\n{\n  return 1;\n}\n';
  const lang = languageForPath('a.c')!;
  assert.deepEqual(findSymbol(lang, parseWith(lang, c), 'greet'), { start: 3, end: 6, kind: 'function_definition' });
  assert.deepEqual(findSymbol(lang, parseWith(lang, 'int greet(void);\n'), 'greet')?.start, 1);
  const py = languageForPath('a.py')!;
  assert.deepEqual(findSymbol(py, parseWith(py, '@dec\n@other(1)\ndef greet():\n    pass\n'), 'greet'), { start: 1, end: 4, kind: 'function_definition' });
});
