// The shapes of the aider cascade: a search/replace block goes in, a placement (an edit of the LF
// text, as data) or a reason it could not be placed comes out. Line numbers are 1-based and
// inclusive; offsets are UTF-16 code units of the LF text.

import type { AiderMatcher } from '../config/config-schema.js';
import type { TextEdit } from '../text/text-edits.js';

/** How a block was placed: one of the configurable matchers, or an append (empty search). */
export type AiderMethod = AiderMatcher | 'append';

export interface AiderBlock {
  readonly search: string;
  readonly replace: string;
}

export interface LineSpan {
  readonly startLine: number;
  readonly endLine: number;
}

export interface Placement {
  readonly method: AiderMethod;
  /** The replacement of the matched region (LF text). */
  readonly edit: TextEdit;
  /** The lines of the text the block replaced. */
  readonly span: LineSpan;
  /** diff-match-patch placements: 1 - edits / length of the longer of search and region. */
  readonly similarity?: number;
}

/** What one step of the cascade found. */
export type StepResult =
  | { readonly kind: 'placed'; readonly placement: Placement }
  | { readonly kind: 'ambiguous'; readonly spans: readonly LineSpan[]; readonly similarity?: number }
  | { readonly kind: 'none' };

/** The region most like the search block, reported when no step could place it. */
export interface ClosestRegion {
  readonly span: LineSpan;
  readonly similarity: number;
}

export type CascadeOutcome =
  | { readonly ok: true; readonly placement: Placement }
  | { readonly ok: false; readonly failure: 'ambiguous'; readonly method: AiderMatcher; readonly spans: readonly LineSpan[]; readonly similarity?: number }
  | { readonly ok: false; readonly failure: 'no_match'; readonly closest?: ClosestRegion; readonly note?: string }
  /** No enabled matcher places the block; this disabled one would have. */
  | { readonly ok: false; readonly failure: 'disabled'; readonly method: AiderMatcher; readonly span?: LineSpan }
  /** An empty search with an empty replacement: nothing to do. */
  | { readonly ok: false; readonly failure: 'empty' };

/** Most candidate spans an ambiguity lists. */
export const MAX_LISTED_SPANS = 20;
