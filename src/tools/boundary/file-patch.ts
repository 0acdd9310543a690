// file_patch: changes 1-50 existing files in one all-or-nothing batch, each by an explicit strategy:
// `ast` rules (pattern → fix, each matching exactly the expected number of nodes) or `aider_block`
// search/replace blocks placed by the aider cascade. `preview: true` computes the candidate without
// formatting or writing and returns a one-use receipt that commits exactly that candidate later.
// The batch logic is in patch-batch.ts; the strategies in patch-strategy.ts.

import * as z from 'zod';
import { PATCH_STRATEGIES } from '../../core/config/config-schema.js';
import { SqlSelectionSchema } from '../../core/sql/sql-selection.js';
import { fileRecord } from './boundary-batch.js';
import { Chattr, Sha256 } from './boundary-schemas.js';
import { runPatchBatch, type PatchSeams } from './patch/patch-batch.js';
import { PatchFileResult } from './patch/patch-results.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import { withTag } from '../file-identity-fields.js';

const AstRule = z.strictObject({
  pattern: z.string().min(1).meta({ guide: 'ast-grep pattern with $NAME / $$$ metavariables, matching exactly one node' }),
  fix: z.string().meta({ guide: 'the replacement; metavariables of the pattern are substituted' }),
  expectedMatches: z.number().int().min(1).max(100_000).optional().meta({ guide: 'how many nodes the pattern must match (default 1; a rule rewrites one node)' }),
});

const AiderBlock = z.strictObject({
  search: z.string().describe('empty appends').meta({ guide: 'the text to replace, quoted from the file (whole lines are best); empty: append `replace` at the end' }),
  replace: z.string().meta({ guide: 'the new text, inserted literally' }),
});


const Entry = z.strictObject({
  patchStrategy: z.enum(PATCH_STRATEGIES).optional().meta({ guide: '"ast" (astRules) or "aider_block" (aiderBlocks); required unless previewReceipt is given' }),
  astRules: z.array(AstRule).max(50).optional(),
  aiderBlocks: z.array(AiderBlock).max(50).optional(),
  expectedSha256: Sha256.optional(),
  chattr: Chattr.optional(),
  preview: z.boolean().optional().meta({ guide: 'compute the change and return its diff and a previewReceipt; nothing is written' }),
  previewReceipt: z.string().min(1).max(128).optional().meta({ guide: 'commit exactly what this preview showed (no strategy or operations then)' }),
  sql: SqlSelectionSchema.optional().meta({ guide: 'SQL validation of the candidate: policy skip | advisory | required, dialect, version, variant' }),
});

const Input = z.strictObject({
  files: fileRecord('file_patch', Entry).meta({ guide: '1-50 files keyed by path, relative to the root' }),
});

const Output = z.object({ files: z.array(PatchFileResult) });

export type FilePatchInput = z.infer<typeof Input>;

export const filePatchTool = defineTool({
  name: 'file_patch',
  family: 'boundary',
  title: 'Patch files (aider blocks, AST rules)',
  description: [
    'Changes 1-50 files, all or nothing, each with expectedSha256: "aider_block" strategy, aiderBlocks [{search, replace}] (search quoted exactly), or "ast", astRules [{pattern, fix}]. preview: true gives a previewReceipt to commit.',
    'Example: {"files":{"a.ts":{"patchStrategy":"aider_block","expectedSha256":"<sha256>","aiderBlocks":[{"search":"a+b","replace":"a-b"}]}}}',
    'aider_no_match: file_read, quote exactly, retry.',
  ].join('\n'),
  guide: [
    'Changes 1-50 existing files in one all-or-nothing batch. Each file names its strategy: "aider_block" with aiderBlocks [{search, replace}] (search quoted from the file, placed exactly, then whitespace-, indentation- and similarity-tolerant, never on an uncertain region) or "ast" with astRules [{pattern, fix}] (each rule must match exactly one node). Needs the file\'s fresh expectedSha256 (file_hash). preview: true returns the diff and a previewReceipt; commit it with {"previewReceipt": "..."} alone. A configured formatter runs at commit.',
    'Example: {"files": {"src/app.ts": {"patchStrategy": "aider_block", "expectedSha256": "<64 hex from file_hash>", "aiderBlocks": [{"search": "  return a + b;\\n", "replace": "  return a - b;\\n"}]}}}',
    'On error nothing is written (or everything is restored: error.details.restored); details name the file, the operation and the evidence (candidate lines, the closest region, matched spans). aider_ambiguous / aider_no_match: file_read the region and quote it exactly; stale_or_missing_hash: file_hash again; patch_strategy_unavailable: see file_capabilities.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    const out = await runPatchBatch(engine, args.files, call);
    return { structured: { files: await withTag(engine, out.files, call.signal, undefined, (_f, i) => out.inHand[i]) }, text: '' };
  },
});

/** file_patch with test seams (a write made to fail part-way). */
export function filePatchToolWith(seams: PatchSeams): ToolDefinition {
  const tool: typeof filePatchTool = {
    ...filePatchTool,
    async run(engine, args, call) {
      const out = await runPatchBatch(engine, args.files, call, seams);
      return { structured: { files: await withTag(engine, out.files, call.signal, undefined, (_f, i) => out.inHand[i]) }, text: '' };
    },
  };
  return tool as unknown as ToolDefinition;
}
