import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfigText } from '../../../src/core/config/config-parse.js';
import { resolveSettings, settingsIdentity } from '../../../src/core/config/config-schema.js';

const refusal = (file: string, text: string): { line?: number; reason: string; message: string } => {
  try {
    parseConfigText(file, text);
  } catch (e) {
    const err = e as { code: string; message: string; details: { line?: number; reason: string } };
    assert.equal(err.code, 'config_invalid');
    return { ...err.details, message: err.message };
  }
  assert.fail('expected a refusal');
};

test('a full TOML configuration resolves with its values and defaults elsewhere', () => {
  const doc = parseConfigText(
    'hashline.toml',
    ['block = ["secrets"]', 'tools = ["boundary"]', '', '[safety]', 'require_hash = false', '', '[files.read]', 'modes = ["text"]', '', '[files.patch]', 'strategies = ["aider_block"]', '', '[files.chattr]', 'chown = "any"', ''].join('\n'),
  );
  const s = resolveSettings(doc);
  assert.deepEqual(s.lists.block, ['secrets']);
  assert.deepEqual(s.tools, ['boundary']);
  assert.equal(s.requireHash, false);
  assert.deepEqual(s.readModes, ['text']);
  assert.deepEqual(s.patchStrategies, ['aider_block']);
  assert.deepEqual(s.aiderMatchers, ['exact', 'whitespace', 'relative-indentation', 'diff-match-patch']);
  assert.equal(s.chown, 'any');
  assert.ok(Object.isFrozen(s) && Object.isFrozen(s.readModes));
});

test('an empty file means every default', () => {
  const s = resolveSettings(parseConfigText('hashline.toml', '# nothing here\n'));
  assert.equal(s.requireHash, true);
  assert.deepEqual(s.readModes, ['ast', 'text']);
  assert.deepEqual(s.patchStrategies, ['ast', 'aider_block']);
  assert.equal(s.chown, 'same');
});

test('refusals name the line and the reason', () => {
  const cases: Array<[string, string, number, RegExp]> = [
    ['unknown key in a table', '[safety]\nrequire_hash = true\nrequire_hashes = false\n', 3, /unknown key `safety.require_hashes`/],
    ['unknown table', 'allow = []\n\n[formatting]\nx = 1\n', 3, /unknown key `formatting`/],
    ['wrong type', '[safety]\nrequire_hash = "no"\n', 2, /safety.require_hash/],
    ['bad enum in a dotted key', 'files.read.modes = ["ast", "binary"]\n', 1, /files.read.modes/],
    ['repeated value', '[files.patch]\n\nstrategies = ["ast", "ast"]\n', 3, /must not repeat/],
    ['bad path form', 'block = ["~/secrets"]\n', 1, /`~` is not expanded/],
    ['syntax error', 'allow = [\n"a",\n', 3, /.+/],
  ];
  for (const [name, text, line, reason] of cases) {
    const r = refusal('/etc/hashline.toml', text);
    assert.equal(r.line, line, `${name}: ${r.message}`);
    assert.match(r.reason, reason, name);
    assert.match(r.message, new RegExp(`^invalid configuration \`/etc/hashline.toml\` line ${line}: `), name);
    assert.doesNotMatch(r.message, /: :/, `${name}: no doubled colon`);
  }
});

test('a 0.1 JSON configuration is read and converted key for key', () => {
  const doc = parseConfigText('old.json', JSON.stringify({ allow: ['/x'], block: ['b'], readAllow: ['/y'], readBlock: ['rb'], tools: ['fs_read'], persistHistory: true }));
  assert.deepEqual(doc, { allow: ['/x'], block: ['b'], read_allow: ['/y'], read_block: ['rb'], tools: ['fs_read'], history: { persist: true } });
  const unknown = refusal('old.json', '{\n  "allow": [],\n  "blok": []\n}');
  assert.equal(unknown.line, 3);
  assert.match(unknown.reason, /unknown key `blok`/);
  const broken = refusal('old.json', '{\n  "allow": [,]\n}');
  assert.equal(broken.line, 2);
});

test('identity follows meaning, not bytes', () => {
  const a = settingsIdentity(resolveSettings(parseConfigText('a.toml', '[safety]\nrequire_hash = false\n')));
  const b = settingsIdentity(resolveSettings(parseConfigText('a.toml', '# a comment\n[safety]\nrequire_hash   =   false # why\n')));
  const c = settingsIdentity(resolveSettings(parseConfigText('a.toml', '[safety]\nrequire_hash = true\n')));
  assert.equal(a, b);
  assert.notEqual(a, c);
  assert.equal(c, settingsIdentity(resolveSettings({})), 'spelling out a default is the default');
});

test('the [sql] section gives the defaults of per-file SQL validation', () => {
  const s = resolveSettings(parseConfigText('hashline.toml', '[sql]\npolicy = "required"\ndialect = "postgresql"\nversion = "18"\nvariant = "core"\n'));
  assert.deepEqual(s.sql, { policy: 'required', dialect: 'postgresql', version: '18', variant: 'core' });
  assert.ok(Object.isFrozen(s.sql));
  assert.equal(resolveSettings(parseConfigText('hashline.toml', '[sql]\nversion = 18\n')).sql.version, '18', 'a bare integer version is read as its text');
  assert.deepEqual(resolveSettings(parseConfigText('hashline.toml', '')).sql, { policy: undefined, dialect: undefined, version: undefined, variant: undefined });
  assert.deepEqual(resolveSettings(parseConfigText('hashline.toml', 'sql.dialect = "pg"\n')).sql.dialect, 'pg');
  assert.notEqual(
    settingsIdentity(resolveSettings(parseConfigText('a.toml', '[sql]\npolicy = "required"\n'))),
    settingsIdentity(resolveSettings(parseConfigText('a.toml', '[sql]\npolicy = "advisory"\n'))),
    'a change of SQL defaults is a change of configuration',
  );
});

test('the [sql] section is strict', () => {
  const cases: Array<[string, string, number, RegExp]> = [
    ['unknown key', '[sql]\npolicy = "advisory"\nstrict = true\n', 3, /unknown key `sql.strict`/],
    ['bad policy', '[sql]\npolicy = "always"\n', 2, /sql.policy/],
    ['empty dialect', '[sql]\ndialect = ""\n', 2, /sql.dialect/],
    ['wrong type', '[sql]\nvariant = 1\n', 2, /sql.variant/],
    ['fractional version', '[sql]\nversion = 18.5\n', 2, /sql.version/],
  ];
  for (const [name, text, line, reason] of cases) {
    const r = refusal('hashline.toml', text);
    assert.equal(r.line, line, `${name}: ${r.message}`);
    assert.match(r.reason, reason, name);
  }
});
