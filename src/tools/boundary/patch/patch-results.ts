// What file_patch reports per file: for a preview, the candidate's hash, its diff against the file
// (the strategy's change only: formatting runs at commit) and the receipt; for a commit, the new
// hash, the previous one and the diff of what was written. Diffs share one reply budget (they
// travel twice, in the text block and structuredContent): a diff that does not fit is left out
// and says so, the change itself stands.

import * as z from 'zod';
import type { ReceiptRecord } from '../../../core/receipt-book.js';
import { jsonEscapedBytes, ReplyBudget } from '../../../core/read/reply-budget.js';
import { rewriteDiff } from '../../../core/text/rewrite-diff.js';
import { textShape, type TextShape } from '../../../core/text/text-doc.js';
import type { ResolvedPath } from '../../../io/guard/path-guard.js';
import type { Chattr } from './patch-plan.js';
import type { SqlOutcome } from './patch-sql.js';
import type { Candidate, PatchMeta, SourceText } from './patch-strategy.js';

/** What a receipt keeps beside its candidate. */
export interface ReceiptPayload {
  readonly meta: PatchMeta;
  readonly chattr?: Chattr;
  /** The SQL selection, policy and outcome the preview had. */
  readonly sql?: SqlOutcome;
}

export interface FileOutcome {
  readonly display: string;
  readonly rp: ResolvedPath;
  readonly preview: boolean;
  /** The file's bytes as read. */
  readonly bytes: Uint8Array;
  readonly sourceSha256: string;
  readonly source: SourceText;
  /** The source's decoding (textShape of `bytes`). */
  readonly shape: TextShape;
  readonly cand: Candidate;
  /** What a commit writes: the candidate, formatted when a formatter took the file. */
  readonly final: Uint8Array;
  readonly chattr: Chattr | undefined;
  readonly sql: SqlOutcome | undefined;
  readonly formatter: string | undefined;
  readonly receiptCommitted: boolean;
  receipt?: ReceiptRecord<ReceiptPayload>;
  sha256After?: string | undefined;
  /** The file's stat key right after the write (batch-change.ts keyAfter). */
  keyAfter?: string | undefined;
  /** The tag the history recorded the written bytes under (null: not kept as text). */
  tagAfter?: string | null | undefined;
}

const Placement = z.object({
  operation: z.number(),
  method: z.string(),
  startLine: z.number(),
  endLine: z.number(),
  similarity: z.number().optional(),
});

export const PatchFileResult = z.object({
  filePath: z.string(),
  preview: z.boolean(),
  changed: z.boolean(),
  strategy: z.string(),
  /** AST: nodes matched; aider: blocks placed. */
  matches: z.number(),
  matchMethods: z.array(z.string()),
  operations: z.number(),
  /** Preview: the candidate's SHA-256; commit: the file's new SHA-256. */
  sha256: z.string(),
  /** Commit: the 4-hex tag of the same bytes (fs_edit's file_hash), when the file still holds them. */
  tag: z.string().optional(),
  /** The file's SHA-256 before (the source the candidate was made from). */
  sourceSha256: z.string(),
  diff: z.string().optional(),
  /** Why the diff is not in the reply. */
  diffOmitted: z.string().optional(),
  placements: z.array(Placement).optional(),
  previewReceipt: z.string().optional(),
  receiptExpiresAt: z.string().optional(),
  receiptCommitted: z.boolean().optional(),
  formatter: z.string().optional(),
  /** The SQL validation of the candidate (absent when none was asked for). */
  sql: z
    .object({
      policy: z.string(),
      dialect: z.string(),
      version: z.string(),
      variant: z.string().optional(),
      status: z.string(),
      diagnostics: z.array(z.object({ message: z.string(), line: z.number(), column: z.number() })),
      note: z.string().optional(),
    })
    .optional(),
});
export type PatchFileResult = z.infer<typeof PatchFileResult>;

function diffOf(o: FileOutcome): string | undefined {
  if (o.preview || o.final === o.cand.bytes) return rewriteDiff(o.display, o.source.raw, o.cand.raw, o.cand.sources).diff;
  return rewriteDiff(o.display, o.source.raw, textShape(o.final).raw).diff;
}

export function buildResults(outcomes: readonly FileOutcome[]): PatchFileResult[] {
  const budget = new ReplyBudget();
  return outcomes.map((o) => {
    const meta = o.cand.meta;
    const wrote = o.sha256After !== undefined;
    const result: PatchFileResult = {
      filePath: o.display,
      preview: o.preview,
      changed: o.preview ? o.cand.changed : wrote && o.sha256After !== o.sourceSha256,
      strategy: meta.strategy,
      matches: meta.matches,
      matchMethods: [...meta.matchMethods],
      operations: meta.operations,
      sha256: o.preview ? o.receipt!.candidateSha256 : (o.sha256After ?? o.sourceSha256),
      sourceSha256: o.sourceSha256,
      ...(meta.placements ? { placements: meta.placements.map((p) => ({ ...p })) } : {}),
      ...(o.receipt ? { previewReceipt: o.receipt.id, receiptExpiresAt: new Date(o.receipt.expiresAt).toISOString() } : {}),
      ...(o.receiptCommitted ? { receiptCommitted: true } : {}),
      ...(o.formatter ? { formatter: o.formatter } : {}),
      ...(o.sql ? { sql: { ...o.sql, diagnostics: o.sql.diagnostics.map((d) => ({ ...d })) } } : {}),
    };
    if (o.cand.changed || (wrote && o.final !== o.cand.bytes)) {
      const diff = diffOf(o);
      if (diff !== undefined) {
        if (2 * diff.length <= budget.remaining && budget.takeBytes(2 * jsonEscapedBytes(diff))) result.diff = diff;
        else result.diffOmitted = `the diff (${diff.length} characters) does not fit in this reply; read the file (file_read) to see the change`;
      }
    }
    return result;
  });
}
