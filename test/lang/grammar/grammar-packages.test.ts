// Where grammars are found: hashline's own packages first, then the user's grammar folder; the
// folder's location rules; the versions `hashline lang add` installs agree with package.json.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { grammarAddCommand, noGrammarInstalled } from '../../../src/core/messages/lang.js';
import { GRAMMAR_VERSIONS, grammarDir, locateGrammar } from '../../../src/lang/grammar/grammar-packages.js';
import { grammarStatus, LANGUAGES } from '../../../src/lang/grammar/registry.js';
import { REPO } from '../../helpers/mcp-client.js';

test('the grammar folder: HASHLINE_GRAMMAR_DIR, else XDG_DATA_HOME, else ~/.local/share', () => {
  assert.equal(grammarDir({ HASHLINE_GRAMMAR_DIR: '/g', XDG_DATA_HOME: '/x', HOME: '/h' }), '/g');
  assert.equal(grammarDir({ XDG_DATA_HOME: '/x', HOME: '/h' }), '/x/hashline/grammars');
  assert.equal(grammarDir({ XDG_DATA_HOME: 'relative', HOME: '/h' }), '/h/.local/share/hashline/grammars');
  assert.equal(grammarDir({ HOME: '/h' }), '/h/.local/share/hashline/grammars');
});

test('every dynamic grammar has the version range package.json pins', () => {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const all = { ...pkg.dependencies, ...pkg.devDependencies };
  for (const l of LANGUAGES.filter((x) => x.pkg)) assert.equal(GRAMMAR_VERSIONS[l.id], all[l.pkg!], l.id);
  // the default install carries exactly these grammar packages (Rust's and Bash's, 12 and 17 MiB, come with `hashline lang add`)
  const shipped = Object.keys(pkg.dependencies).filter((d) => d.startsWith('@ast-grep/lang-')).map((d) => d.slice('@ast-grep/lang-'.length)).sort();
  assert.deepEqual(shipped, ['go', 'json', 'markdown', 'python', 'toml', 'yaml']);
});

test("a grammar in the user's folder is found there; one installed with hashline is found first", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hashline-grammars-'));
  try {
    const pkgDir = path.join(dir, 'node_modules/@ast-grep/lang-zzfake');
    mkdirSync(pkgDir, { recursive: true });
    writeFileSync(path.join(pkgDir, 'package.json'), '{"name": "@ast-grep/lang-zzfake", "main": "index.js"}');
    writeFileSync(path.join(pkgDir, 'index.js'), 'module.exports = { libraryPath: "/nowhere", extensions: ["zz"] };');
    assert.deepEqual(locateGrammar('@ast-grep/lang-zzfake', dir), { entry: path.join(pkgDir, 'index.js'), source: 'user' });
    assert.equal(locateGrammar('@ast-grep/lang-python', dir)?.source, 'package');
    assert.equal(locateGrammar('@ast-grep/lang-nothere', dir), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('status lists every grammar with where it is; the message for a missing one names the command', () => {
  const status = grammarStatus();
  assert.equal(status.length, LANGUAGES.length);
  assert.equal(status.find((g) => g.id === 'TypeScript')?.source, 'built-in');
  assert.equal(status.find((g) => g.id === 'python')?.source, 'package');
  assert.equal(grammarAddCommand('swift'), 'hashline lang add swift');
  assert.match(noGrammarInstalled('a.swift', 'swift'), /`hashline lang add swift` and restart hashline/);
});
