// The listed schemas written once: an input schema keeps every field with its type, enum, default
// and description (a field's long form, `.meta({ guide })`, is for the docs pages only), and the top level's `additionalProperties: false`, but not the nested repeats,
// the limits or string-key `propertyNames`; a tuple is left as zod emits it. An output schema keeps
// its fields and their types to the depth asked (array items at their array's level) and the top
// level's `required`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as z from 'zod';
import { compactInputSchema, compactOutputSchema } from '../../src/tools/schema-compact.js';

function json(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

test('an input schema: fields, types, enums, defaults and descriptions stay; repeats and limits go; a tuple is untouched', () => {
  const input = z.strictObject({
    files: z.record(z.string().min(1), z.strictObject({ mode: z.enum(['a', 'b']).default('a').describe('which'), n: z.number().int().min(1).max(9).meta({ guide: 'the long form, for docs' }) })).describe('keyed'),
    pair: z.tuple([z.number(), z.number()]).meta({ guide: 'for docs too' }),
    list: z.array(z.string().min(1)).min(1).max(50),
  });
  const out = compactInputSchema(json(input, 'input'));
  const { guide: _guide, ...pair } = (json(input, 'input') as { properties: { pair: Record<string, unknown> } }).properties.pair;
  assert.deepEqual(out, {
    type: 'object',
    properties: {
      files: { description: 'keyed', type: 'object', additionalProperties: { type: 'object', properties: { mode: { description: 'which', default: 'a', type: 'string', enum: ['a', 'b'] }, n: { type: 'integer' } }, required: ['n'] } },
      pair,
      list: { type: 'array', items: { type: 'string' } },
    },
    required: ['files', 'pair', 'list'],
    additionalProperties: false,
  });
});

test('an output schema: fields and types to the depth asked, the top level\'s required, no prose or limits', () => {
  const output = z.object({
    results: z.array(z.object({ path: z.string().describe('where'), inner: z.object({ deep: z.string() }), pair: z.tuple([z.number(), z.number()]) })),
    total: z.number().int().min(0),
  });
  assert.deepEqual(compactOutputSchema(json(output, 'output'), 1), {
    type: 'object',
    properties: {
      results: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, inner: { type: 'object' }, pair: { type: 'array' } } } },
      total: { type: 'integer' },
    },
    required: ['results', 'total'],
  });
});
