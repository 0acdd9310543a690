// The JSON Schemas a model is shown (`tools/list`, the AI SDK adapter), written once: hosts put every tool's input schema into the
// model's context on every turn (and the whole list, output schemas included, crosses the wire), so
// what zod emits verbosely is dropped here. Nothing a caller may send is dropped: every input field
// stays, with its type, enum, default and description; the tool's strict zod schema still refuses
// an unknown key at every level, which the top-level `additionalProperties: false` announces once.
// A node that is a tuple (`prefixItems`) is left exactly as zod emits it.

import * as z from 'zod';

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapChildren(node: Node, f: (child: unknown, depth: number) => unknown, depth: number): Node {
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'properties' && isNode(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, f(s, depth + 1)]));
    else if (k === 'items' && isNode(v)) out[k] = f(v, depth);
    else if (k === 'additionalProperties' && isNode(v)) out[k] = f(v, depth + 1);
    else if ((k === 'anyOf' || k === 'oneOf' || k === 'allOf') && Array.isArray(v)) out[k] = v.map((s) => f(s, depth));
    else out[k] = v;
  }
  return out;
}

/** Limits the tool's zod schema enforces with a coded refusal that names them; descriptions state the counts that matter (1-50 files). */
const INPUT_LIMITS = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

/**
 * An input schema: nested `additionalProperties: false`, `propertyNames` of string keys,
 * numeric bounds and length or count limits dropped (every field, type, enum and default stays).
 */
export function compactInputSchema(schema: Node): Node {
  const walk = (s: unknown, depth: number): unknown => {
    if (!isNode(s)) return s;
    if ('prefixItems' in s) {
      const { guide: _guide, ...tuple } = s;
      return tuple;
    }
    const node = mapChildren(s, walk, depth);
    if (depth > 0 && node.additionalProperties === false) delete node.additionalProperties;
    if (isNode(node.propertyNames) && node.propertyNames.type === 'string') delete node.propertyNames;
    for (const k of INPUT_LIMITS) delete node[k];
    // a field's long form (`.meta({ guide })`) is for docs/tools pages only
    delete node.guide;
    return node;
  };
  return walk(schema, 0) as Node;
}

/** Keys an output schema keeps: the shape a client validates (types, fields, required), not the prose or limits. */
const OUTPUT_KEYS = new Set(['type', 'properties', 'required', 'items', 'anyOf', 'oneOf', 'allOf', 'const', 'additionalProperties']);

/**
 * An output schema: its fields and their types down to `maxDepth` levels of nesting (an array's
 * items are the array's level), the top level's `required`, no descriptions, limits or
 * `additionalProperties: false`; below that, a value's type alone.
 */
export function compactOutputSchema(schema: Node, maxDepth: number): Node {
  const walk = (s: unknown, depth: number): unknown => {
    if (!isNode(s)) return s;
    if (depth > maxDepth) return 'type' in s ? { type: s.type } : {};
    if ('prefixItems' in s) return s;
    const kept: Node = {};
    for (const [k, v] of Object.entries(s)) if (OUTPUT_KEYS.has(k)) kept[k] = v;
    const node = mapChildren(kept, walk, depth);
    if (depth > 0) delete node.required;
    const extra = node.additionalProperties;
    if (extra === false || (isNode(extra) && Object.keys(extra).length === 0)) delete node.additionalProperties;
    return node;
  };
  return walk(schema, 0) as Node;
}

/** The input schema a model is shown for a tool's zod input: its JSON Schema, compacted. */
export function listedInputSchema(input: z.ZodType): Node {
  const { $schema: _schema, ...json } = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Node;
  return compactInputSchema(json);
}
