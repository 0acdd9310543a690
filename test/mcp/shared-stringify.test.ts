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

test('only replies with a long text block take the sharing path', () => {
  assert.equal(carriesLongText({ result: { content: [{ type: 'text', text: 'x'.repeat(4096) }] } }), true);
  assert.equal(carriesLongText({ result: { content: [{ type: 'text', text: 'short' }] } }), false);
  assert.equal(carriesLongText({ result: { tools: [] } }), false);
  assert.equal(carriesLongText({ method: 'notifications/progress' }), false);
});
