import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TopLevelIdScanner } from '../../src/mcp/top-level-id.js';

function scan(json: string, cuts: number[] = []): string | number | undefined {
  return scanAll(json, cuts).id as string | number | undefined;
}

test('finds the top-level id wherever it stands, ignoring ids nested in params', () => {
  assert.equal(scan('{"jsonrpc":"2.0","id":7,"method":"x"}'), 7);
  assert.equal(scan('{"method":"x","params":{"id":99,"a":[{"id":"no"}]},"jsonrpc":"2.0","id":"req-1"}'), 'req-1');
  assert.equal(scan('{"params":{"text":"\\"id\\":5"},"id" : 12 }'), 12);
  assert.equal(scan('{"method":"notifications/x"}'), undefined);
});

test('property: the id is found across any chunking of any params', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.oneof(fc.integer(), fc.string({ unit: 'grapheme', maxLength: 20 })), fc.array(fc.nat(7), { maxLength: 30 }), (params, id, cuts) => {
      const json = JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params, id });
      assert.deepEqual(scan(json, cuts), id);
    }),
    { numRuns: 500 },
  );
});

function scanAll(json: string, cuts: number[] = []): { id: unknown; method: unknown; toolName: unknown } {
  const bytes = Buffer.from(json);
  const s = new TopLevelIdScanner();
  let at = 0;
  for (const c of cuts) {
    s.push(bytes.subarray(at, Math.min(at + c, bytes.length)));
    at = Math.min(at + c, bytes.length);
  }
  s.push(bytes.subarray(at));
  return { id: s.id, method: s.method, toolName: s.toolName };
}

test('finds the method and the tool name of a tools/call, never a name nested deeper', () => {
  assert.deepEqual(scanAll('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{"name":"no","files":{"a":{"name":"x"}}},"name":"file_write"}}'), {
    id: 3,
    method: 'tools/call',
    toolName: 'file_write',
  });
  assert.deepEqual(scanAll('{"params":{"name":"fs_write","arguments":{}},"method":"tools/call","id":"r"}'), { id: 'r', method: 'tools/call', toolName: 'fs_write' });
  assert.deepEqual(scanAll('{"name":"top","method":"ping","id":1,"other":{"name":"x"}}'), { id: 1, method: 'ping', toolName: undefined });
});

test('property: id, method and tool name are found across any chunking of any arguments', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.string({ maxLength: 12 }), fc.array(fc.nat(7), { maxLength: 30 }), (args, name, cuts) => {
      const json = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { arguments: args, name } });
      assert.deepEqual(scanAll(json, cuts), { id: 5, method: 'tools/call', toolName: name });
    }),
    { numRuns: 500 },
  );
});
