// Applies a file's aider blocks in order, each to the text the one before it left, to the text in
// its own line endings: every block is placed on the LF form (placeBlock), and its edit is mapped
// back, so untouched lines keep their terminators and new lines get the file's (a CRLF file stays
// CRLF). The line sources of the edits come along, so the diff is read off them.

import type { AiderMatcher } from '../config/config-schema.js';
import { lfOffsets } from '../text/lf-offsets.js';
import { composeSources, lineSources } from '../text/line-sources.js';
import { applyEdits } from '../text/text-edits.js';
import { placeBlock } from './cascade.js';
import type { AiderBlock, CascadeOutcome, Placement } from './types.js';

export type BlocksOutcome =
  | { readonly ok: true; readonly raw: string; readonly placements: readonly Placement[]; readonly sources?: Int32Array }
  | {
      readonly ok: false;
      /** 1-based index of the block that could not be placed. */
      readonly operation: number;
      readonly failure: Extract<CascadeOutcome, { ok: false }>;
      /** The LF text that block was matched against (what the evidence's lines refer to). */
      readonly lf: string;
    };

/** `raw`: decoded text without its BOM, in its own line endings; `eol`: the ending new lines get. */
export function applyBlocks(raw: string, eol: string, blocks: readonly AiderBlock[], matchers: readonly AiderMatcher[]): BlocksOutcome {
  let cur = raw;
  let sources: Int32Array | undefined;
  const placements: Placement[] = [];
  for (let k = 0; k < blocks.length; k++) {
    const { lf, toRaw } = lfOffsets(cur);
    const outcome = placeBlock(lf, blocks[k]!, matchers);
    if (!outcome.ok) return { ok: false, operation: k + 1, failure: outcome, lf };
    const e = outcome.placement.edit;
    const edit = { start: toRaw(e.start), end: toRaw(e.end), text: eol === '\n' ? e.text : e.text.replace(/\n/g, eol) };
    const next = applyEdits(cur, [edit]);
    const step = lineSources(cur, [edit], next);
    sources = sources ? composeSources(sources, step) : step;
    cur = next;
    placements.push(outcome.placement);
  }
  return sources === undefined ? { ok: true, raw: cur, placements } : { ok: true, raw: cur, placements, sources };
}
