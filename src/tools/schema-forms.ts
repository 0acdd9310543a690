// Zod forms for tool schemas whose JSON Schema means the same under draft-07 and 2020-12. The
// official MCP clients validate a tool's structured reply with Ajv: the 1.x SDK in draft-07, the
// 2.x client in 2020-12. A zod tuple converts to `prefixItems` + `items: false`, which draft-07
// reads as "no items at all", so pairs are plain arrays of exactly two numbers here.

import * as z from 'zod';

/** A `[start, end]` pair: `{type: "array", items: {type: "number"}, minItems: 2, maxItems: 2}` on the wire. */
export function numberPair(): z.ZodType<[number, number]> {
  return z.array(z.number()).length(2) as unknown as z.ZodType<[number, number]>;
}
