// The edit DSL as data. The parser yields `EditOp`s (what the agent wrote, line numbers 1-based
// into the file as read, each with the 1-based line of the DSL text it came from); the planner
// resolves blocks and checks them against a file, giving concrete `Hunk`s; one function applies them.

export type EditOp =
  | { readonly kind: 'replace'; readonly start: number; readonly end: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'delete'; readonly start: number; readonly end: number; readonly dslLine: number }
  | { readonly kind: 'insert_before' | 'insert_after'; readonly line: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'insert_head' | 'insert_tail'; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'replace_block'; readonly line: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'delete_block'; readonly line: number; readonly dslLine: number };

export interface EditPlan {
  readonly ops: readonly EditOp[];
  /** Parser warnings (auto-prefixed rows). */
  readonly warnings: readonly string[];
}

/**
 * A concrete change against a file of known length. `range` replaces lines start..end (1-based,
 * inclusive) by `rows` (none: a deletion); `before`/`after` insert next to line `line`; `head` and
 * `tail` insert at the file's boundaries.
 */
export type Hunk =
  | { readonly kind: 'range'; readonly start: number; readonly end: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'before'; readonly line: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'after'; readonly line: number; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'head'; readonly rows: readonly string[]; readonly dslLine: number }
  | { readonly kind: 'tail'; readonly rows: readonly string[]; readonly dslLine: number };

/** A line of an edited file: line `src` (0-based) of the file as read, or a new line of text. */
export type Piece = { readonly src: number } | { readonly text: string };

/** Resolves `replace block N` / `delete block N` against a file's text: 1-based inclusive lines, or null. */
export type BlockResolver = (text: string, line: number) => { start: number; end: number } | null;

/** True when every op is an `insert head:` or `insert tail:` (content-independent positions). */
export function onlyHeadTail(ops: readonly EditOp[]): boolean {
  return ops.length > 0 && ops.every((op) => op.kind === 'insert_head' || op.kind === 'insert_tail');
}
