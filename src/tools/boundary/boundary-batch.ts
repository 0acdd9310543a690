// The batch shapes of the boundary family: a `files` record keyed by path, or a `filePaths` /
// `files` array, each with 1-50 entries. A count outside that range is the coded `batch_limit`
// with the family's wording (`<tool> requires between 1 and 50 files`); the JSON schema a client
// sees states the bounds too.

import * as z from 'zod';
import { MAX_BATCH_FILES } from '../../core/config/config.js';

/** The params marker the MCP adapter turns into a `batch_limit` error. */
export const BATCH_LIMIT_PARAM = 'batch_limit';

export function batchLimitMessage(tool: string): string {
  return `${tool} requires between 1 and ${MAX_BATCH_FILES} files`;
}

function checkCount(tool: string, n: number, ctx: z.RefinementCtx): void {
  if (n < 1 || n > MAX_BATCH_FILES) {
    ctx.addIssue({ code: 'custom', message: batchLimitMessage(tool), params: { hashline: BATCH_LIMIT_PARAM } });
  }
}

/** `{ "<path>": entry }` with 1-50 keys. */
export function fileRecord<T extends z.ZodType>(tool: string, entry: T) {
  return z
    .record(z.string().min(1), entry)
    .superRefine((v, ctx) => checkCount(tool, Object.keys(v).length, ctx))
    .meta({ minProperties: 1, maxProperties: MAX_BATCH_FILES });
}

/** `[item, ...]` with 1-50 items. */
export function fileList<T extends z.ZodType>(tool: string, item: T) {
  return z
    .array(item)
    .superRefine((v, ctx) => checkCount(tool, v.length, ctx))
    .meta({ minItems: 1, maxItems: MAX_BATCH_FILES });
}
