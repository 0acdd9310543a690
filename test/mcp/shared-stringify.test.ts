import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { carriesLongText, encodeSharingStrings } from '../../src/mcp/shared-stringify.js';

const stringifySharingStrings = (v: unknown) => {
  const chunks = encodeSharingStrings(v);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
};

test('gives exactly the bytes of JSON.stringify, long repeated strings included', () => {
  const long = fc.string({ unit: 'binary', minLength: 4096, maxLength: 5000 });
  fc.assert(
    fc.property(long, fc.jsonValue(), fc.string({ unit: 'binary' }), (text, extra, key) => {
      const message = {
        jsonrpc: '2.0',
        id: 7,
        result: {
          content: [{ type: 'text', text }],
          structuredContent: { results: [{ content: text, note: undefined, [key]: extra, when: new Date(0), fn: () => 1 }] },
          skipped: [undefined, () => 1],
        },
      };
      assert.equal(stringifySharingStrings(message), JSON.stringify(message));
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.jsonValue(), (v) => {
      assert.equal(stringifySharingStrings(v), JSON.stringify(v));
    }),
    { numRuns: 1000 },
  );
  assert.equal(stringifySharingStrings(undefined), undefined);
  assert.equal(stringifySharingStrings([new String('s'), new Number(1), new Boolean(false)]), '["s",1,false]');
});

test('a string longer than one escaping slice gives the bytes of JSON.stringify, whatever sits at the cuts', () => {
  // pairs, lone halves and escapes around each 32 Ki-unit cut
  const around = fc.constantFrom('😀', '\ud83d', '\ude00', '"', '\\', '\n', '\u0001', 'é', 'a');
  fc.assert(
    fc.property(fc.array(around, { minLength: 6, maxLength: 6 }), fc.integer({ min: 0, max: 3 }), (marks, shift) => {
      let s = '';
      for (const cut of [32 * 1024, 64 * 1024, 96 * 1024]) {
        s += 'x'.repeat(cut - s.length - 3 + shift);
        s += marks[(cut >> 15) - 1]! + marks[(cut >> 15) + 2]!;
      }
      s += 'tail';
      const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: s }], structuredContent: { results: [{ content: s }] } } };
      assert.equal(stringifySharingStrings(message), JSON.stringify(message));
    }),
    { numRuns: 200 },
  );
});

test('only replies with a long text block take the sharing path', () => {
  assert.equal(carriesLongText({ result: { content: [{ type: 'text', text: 'x'.repeat(4096) }] } }), true);
  assert.equal(carriesLongText({ result: { content: [{ type: 'text', text: 'short' }] } }), false);
  assert.equal(carriesLongText({ result: { tools: [] } }), false);
  assert.equal(carriesLongText({ method: 'notifications/progress' }), false);
});

test('a long string sent again reuses its encoded bytes; another of the same length gets its own', () => {
  const long = `"quoted" \\ é 😀 \n${'x'.repeat(5000)}`;
  const message = (text: string) => ({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], structuredContent: { results: [{ content: text }] } } });
  const first = encodeSharingStrings(message(long));
  const again = encodeSharingStrings(message(`${long}`));
  assert.equal(Buffer.concat(again).toString('utf8'), JSON.stringify(message(long)));
  // the long text's chunk is the very buffer encoded the first time (no second escape and encode)
  const longChunk = (chunks: Buffer[]) => chunks.find((c) => c.length > 5000)!;
  assert.equal(longChunk(again), longChunk(first));
  const other = `${long.slice(0, -1)}y`;
  const third = encodeSharingStrings(message(other));
  assert.equal(Buffer.concat(third).toString('utf8'), JSON.stringify(message(other)));
  assert.notEqual(longChunk(third), longChunk(first));
});
