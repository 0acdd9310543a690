// Ranges in TOML texts: every form of key and value the scanner follows, each range checked
// against the source text it names; what it cannot follow gives no range.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tomlRangeOf } from '../../src/core/toml-ranges.js';

const TEXT = [
  '# a comment',
  'title = "TOML" # trailing',
  '[owner]',
  'name = "Tom"',
  'dob = 1979-05-27 07:32:00-08:00',
  '[database]',
  'ports = [ 8000, 8001,',
  '  8002 ]',
  'temp = { cpu = 79.5, "case" = 72.0 }',
  'site."google.com" = true',
  "path = 'C:\\dir'",
  '[servers.alpha]',
  'ip = "10.0.0.1"',
  '[[products]]',
  'name = "Hammer"',
  '[[products]]',
  'name = "Nail"',
  'text = """',
  'multi "quoted"',
  'line"""',
  '"Ω key" = "quoted unicode key"',
].join('\n');

const at = (pointer: string[]) => {
  const r = tomlRangeOf(TEXT, pointer);
  return r === undefined ? undefined : TEXT.slice(r.start, r.end);
};

test('values at every kind of key', () => {
  assert.equal(at(['title']), '"TOML"');
  assert.equal(at(['owner', 'dob']), '1979-05-27 07:32:00-08:00');
  assert.equal(at(['database', 'ports', '2']), '8002');
  assert.equal(at(['database', 'ports']), '[ 8000, 8001,\n  8002 ]');
  assert.equal(at(['database', 'temp', 'case']), '72.0');
  assert.equal(at(['database', 'site', 'google.com']), 'true');
  assert.equal(at(['database', 'path']), "'C:\\dir'");
  assert.equal(at(['servers', 'alpha', 'ip']), '"10.0.0.1"');
  assert.equal(at(['products', '1', 'text']), '"""\nmulti "quoted"\nline"""');
  assert.equal(at(['products', '1', 'Ω key']), '"quoted unicode key"');
});

test('tables span their header and their keys; arrays of tables span their elements', () => {
  assert.equal(at(['owner']), '[owner]\nname = "Tom"\ndob = 1979-05-27 07:32:00-08:00');
  assert.equal(at(['servers']), '[servers.alpha]\nip = "10.0.0.1"');
  assert.equal(at(['products', '0']), '[[products]]\nname = "Hammer"');
  assert.ok(at(['products'])!.startsWith('[[products]]\nname = "Hammer"\n[[products]]'));
});

test('what is not there, or not followed, has no range', () => {
  assert.equal(at(['nope']), undefined);
  assert.equal(at(['products', '5']), undefined);
  assert.equal(at(['title', 'x']), undefined);
  assert.equal(tomlRangeOf('a = [1, 2', ['a']), undefined);
});
