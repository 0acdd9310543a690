import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentFormatFor, parseDocument } from '../../src/core/documents.js';
import { evaluatePointer, parsePointer } from '../../src/core/json-pointer.js';

const select = (format: Parameters<typeof parseDocument>[0], text: string, pointer: string) => {
  const doc = parseDocument(format, text);
  const tokens = parsePointer(pointer);
  const r = evaluatePointer(doc.value, tokens);
  return { found: r.found, value: r.found ? r.value : undefined, range: r.found ? doc.rangeOf(tokens) : undefined, errors: doc.errors };
};

test('RFC 6901: escapes, the whole document, array indexes, `-`', () => {
  assert.deepEqual(parsePointer(''), []);
  assert.deepEqual(parsePointer('/a~1b/m~0n/0'), ['a/b', 'm~n', '0']);
  assert.deepEqual(parsePointer('/'), ['']);
  for (const bad of ['a', '/x~2', '/x~']) assert.throws(() => parsePointer(bad), (e: { code?: string }) => e.code === 'invalid_document_selector', bad);
  const doc = { 'a/b': { 'm~n': [10, 20] }, '': 'empty key', arr: [1] };
  assert.deepEqual(evaluatePointer(doc, parsePointer('/a~1b/m~0n/1')), { found: true, value: 20 });
  assert.deepEqual(evaluatePointer(doc, parsePointer('/')), { found: true, value: 'empty key' });
  assert.deepEqual(evaluatePointer(doc, parsePointer('')), { found: true, value: doc });
  assert.deepEqual(evaluatePointer(doc, parsePointer('/arr/-')), { found: false, missing: '/arr/-' });
  assert.deepEqual(evaluatePointer(doc, parsePointer('/arr/01')), { found: false, missing: '/arr/01' });
  assert.deepEqual(evaluatePointer(doc, parsePointer('/arr/1')), { found: false, missing: '/arr/1' });
  assert.deepEqual(evaluatePointer(doc, parsePointer('/nope/x')), { found: false, missing: '/nope' });
  assert.deepEqual(evaluatePointer({ toString: 1 }, parsePointer('/constructor')), { found: false, missing: '/constructor' });
});

test('JSON and JSONC: nested arrays with ranges; comments and trailing commas', () => {
  const text = '{\n  "a": [[1, 2], [3, {"b": "x"}]],\n  // a comment\n  "c": true,\n}\n';
  const r = select('jsonc', text, '/a/1/1/b');
  assert.deepEqual(r.value, 'x');
  assert.deepEqual(r.range, { start: { line: 2, column: 27 }, end: { line: 2, column: 30 } }); // the string token, quotes included
  assert.deepEqual(r.errors, []);
  assert.equal(select('json', text, '/c').value, true);
  const broken = parseDocument('json', '{\n  "a": 1,\n  "b": }\n');
  assert.equal(broken.errors[0]!.line, 3);
});

test('YAML: anchors and aliases, merge keys, several documents as an array', () => {
  const text = 'base: &b\n  port: 80\n  host: h\nsvc:\n  <<: *b\n  port: 81\nalias: *b\n';
  assert.deepEqual(select('yaml', text, '/svc').value, { port: 81, host: 'h' });
  assert.deepEqual(select('yaml', text, '/alias/port').value, 80);
  assert.deepEqual(select('yaml', text, '/base/port').range, { start: { line: 2, column: 9 }, end: { line: 2, column: 11 } });
  const multi = 'a: 1\n---\nlist:\n  - x\n  - y\n';
  assert.deepEqual(select('yaml', multi, '/1/list/1').value, 'y');
  assert.deepEqual(select('yaml', multi, '/1/list/1').range?.start, { line: 5, column: 5 });
  assert.equal(select('yaml', multi, '/0/a').value, 1);
  assert.equal(select('yaml', 'a: [\n', '').errors.length > 0, true);
});

test('TOML: tables, arrays of tables, big integers and dates as JSON text; errors with a line', () => {
  const text = 'title = "t"\nbig = 9007199254740993\nwhen = 2024-01-02T03:04:05Z\n[server]\nport = 8080\n[[bin]]\nname = "a"\n[[bin]]\nname = "b"\n';
  assert.equal(select('toml', text, '/server/port').value, 8080);
  assert.equal(select('toml', text, '/bin/1/name').value, 'b');
  assert.equal(select('toml', text, '/big').value, '9007199254740993');
  assert.equal(select('toml', text, '/when').value, '2024-01-02T03:04:05.000Z');
  // core positions are 1-based (file_read reports them zero-based)
  assert.deepEqual(select('toml', text, '/server/port').range, { start: { line: 5, column: 8 }, end: { line: 5, column: 12 } });
  assert.equal(parseDocument('toml', 'a = \n').errors[0]!.line, 1);
});

test('formats by extension', () => {
  assert.equal(documentFormatFor('a/b.JSON'), 'json');
  assert.equal(documentFormatFor('x.yml'), 'yaml');
  assert.equal(documentFormatFor('c.toml'), 'toml');
  assert.equal(documentFormatFor('tsconfig.jsonc'), 'jsonc');
  assert.equal(documentFormatFor('dir.json/file'), undefined);
  assert.equal(documentFormatFor('Makefile'), undefined);
});
