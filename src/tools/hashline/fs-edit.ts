// fs_edit: line-addressed edits in the hashline DSL, checked against the tag of the read they were
// written for. Targets run in order; the first failure stops the batch (EditBatchError): earlier
// targets stay applied and are listed with their fresh tags, later ones are skipped. Each target is
// loaded, checked, applied and saved under its file lock; BOM, line endings, mode and every byte
// outside the edited lines are kept; the session history records the text before and after. A
// file the read policy refuses is not edited (a reply shows the lines an edit touches). The diffs
// of one call share a reply budget: a diff that does not fit is left out with a note, the edit
// stands (a change that landed is never answered as a failure).

import { createHash } from 'node:crypto';
import * as z from 'zod';
import { MAX_BATCH_FILES } from '../../core/config/config.js';
import { materialize } from '../../core/edit/apply.js';
import type { Piece } from '../../core/edit/ops.js';
import { pieceDiff } from '../../core/edit/piece-diff.js';
import { parseEditOps } from '../../core/edit/parse.js';
import { HashlineError, toHashlineError, type ErrorCode } from '../../core/errors/errors.js';
import { generatedMarker, generatedRefusal } from '../../core/generated.js';
import { jsonEscapedBytes, ReplyBudget } from '../../core/read/reply-budget.js';
import * as msg from '../../core/messages/edit.js';
import type { HistoryKind } from '../../core/messages/edit.js';
import { shapeOf } from '../../core/merge/edit-shape.js';
import { decideEdit } from '../../core/merge/recover.js';
import { formatHeader, isTag } from '../../core/text/tag.js';
import { docTag, reparsesAs, serializeWithText } from '../../core/text/text-doc.js';
import { DIFF_CONTEXT_LINES } from '../../core/text/unified-diff.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { writeAtomic } from '../../io/atomic-write.js';
import { statKeyNow } from '../../io/read/read-verified-sync.js';
import { readAdmitted } from '../../io/guard/read-admission.js';
import { loadTextFile, type LoadedFile } from '../../io/read/text-file.js';
import { WrittenTexts } from '../../io/read/written-texts.js';
import { resolveBlock } from '../../lang/symbols/blocks.js';
import { warmAfterWrite } from '../../lang/parse/warm-after-write.js';
import type { Engine } from '../engine.js';
import { EditResultSchema, type EditResult } from './hashline-results.js';
import { defineTool, PROCESS_SESSION_ID } from '../tool.js';
import { withSha256, type InHand } from '../file-identity-fields.js';
import { recordMade } from '../record-change.js';

const Target = z.strictObject({
  path: z.string().meta({ guide: 'file to edit, relative to the project root' }),
  file_hash: z.string().meta({ guide: 'the 4-hex tag of your latest read/write/edit of this file: the TAG of its ¶path#TAG header' }),
  ops: z.string().meta({ guide: 'edit operations in the hashline DSL, one per line (see the tool description)' }),
});

const Input = z.strictObject({
  targets: z.array(Target).min(1).max(MAX_BATCH_FILES).meta({ guide: 'files to edit, applied in this order' }),
  reply: z
    .enum(['diff', 'compact'])
    .optional()
    .describe('compact: no diff').meta({ guide: '"compact": an edit applied as sent answers `#TAG changed lines A-B (+N -M)` (its new tag and the changed lines of the new file; with several targets `¶path#TAG …`) instead of the diff; a merged stale edit still shows its diff' }),
});

const Output = z.object({
  results: z.array(EditResultSchema).optional(),
  failed_path: z.string().optional(),
  cause: z.string().optional(),
  code: z.string().optional(),
  applied: z.array(EditResultSchema).optional(),
  skipped: z.array(z.string()).optional(),
});

/** What fs_edit last wrote to each path and its parse: an agent's next edit of the file loads it without a parse. */
const written = new WrittenTexts();

const GUARD_CODES: readonly ErrorCode[] = ['invalid_path', 'path_outside_root', 'path_blocked', 'path_conflict', 'symlink_escape', 'link_swapped'];

/** Accepts `1A2B`, `#1A2B` or a whole `¶path#1A2B` header; returns the tag part. */
function tagOf(input: string): string {
  const s = input.trim();
  const hash = s.lastIndexOf('#');
  return hash >= 0 ? s.slice(hash + 1).trim() : s;
}

/**
 * The lines the agent has now seen: new lines, kept lines it had been shown, and the diff's
 * context lines when the diff is in the reply.
 */
function seenAfterEdit(pieces: readonly Piece[], seenBefore: ReadonlySet<number> | undefined, diffShown: boolean): number[] {
  // plain loops, no closure per line: this runs once per edit, mostly before the JIT has compiled it
  const n = pieces.length;
  // the changes: a new line, or a kept line that does not follow the line before it
  const changes: number[] = [];
  let prevSrc = -1; // -1: the start; -2: a new line (a kept line after one is no change)
  for (let k = 0; k < n; k++) {
    const src = (pieces[k] as { src?: number }).src;
    if (src === undefined) {
      changes.push(k);
      prevSrc = -2;
    } else {
      if (prevSrc !== -2 && prevSrc + 1 !== src) changes.push(k);
      prevSrc = src;
    }
  }
  const seen = seenBefore !== undefined && seenBefore.size > 0 ? seenBefore : undefined;
  const out: number[] = [];
  let c = 0; // the first change at or after k
  for (let k = 0; k < n; k++) {
    while (c < changes.length && changes[c]! < k) c++;
    const src = (pieces[k] as { src?: number }).src;
    let shown: boolean;
    if (diffShown) {
      const after = c < changes.length ? changes[c]! - k : Infinity;
      const before = c > 0 ? k - changes[c - 1]! : Infinity;
      shown = Math.min(after, before) <= DIFF_CONTEXT_LINES;
    } else shown = src === undefined;
    if (shown || (src !== undefined && seen?.has(src + 1) === true)) out.push(k + 1);
  }
  return out;
}

/** Takes room for a diff, which a reply carries twice (text and structuredContent); false when it does not fit. */
function diffFits(budget: ReplyBudget, diff: string): boolean {
  // a diff takes at least its length in bytes: measure only one that could fit
  return 2 * diff.length <= budget.remaining && budget.takeBytes(2 * jsonEscapedBytes(diff));
}

function historyKind(engine: Engine): HistoryKind {
  const s = engine.history.status();
  return s.durable ? 'durable' : s.backend === 'off' ? 'off' : 'memory';
}

async function loadForEdit(engine: Engine, rp: ResolvedPath): Promise<LoadedFile> {
  try {
    return await loadTextFile(engine.guard, rp, 'write', written);
  } catch (e) {
    const err = toHashlineError(e);
    if (err.code === 'not_found') throw new HashlineError('not_found', msg.fileNotFound(rp.display), { details: { path: rp.display } });
    throw err;
  }
}

/** The one-line summary of a compact reply: where the change is in the new file, lines added and removed. */
function changedSpan(pieces: readonly Piece[], oldCount: number): string {
  let first = -1;
  let last = -1;
  let added = 0;
  let kept = 0;
  let prev = -1;
  let afterAdded = false;
  const mark = (k: number) => {
    if (first < 0) first = k;
    last = k;
  };
  pieces.forEach((p, k) => {
    if (!('src' in p)) {
      added++;
      mark(k);
      afterAdded = true;
      return;
    }
    kept++;
    // lines were deleted just before this one: it marks where, unless new lines took their place
    if (p.src !== prev + 1 && !afterAdded) mark(k);
    prev = p.src;
    afterAdded = false;
  });
  if (prev !== oldCount - 1) mark(Math.max(0, pieces.length - 1)); // deleted at the end
  return msg.compactSpan(Math.max(1, first + 1), Math.max(1, last + 1), added, oldCount - kept);
}

/** A result, its compact summary (text only) and the bytes written with the file's stat key right after (reply only). */
type Edited = EditResult & { summary?: string; held?: InHand };

async function editOne(engine: Engine, target: z.infer<typeof Target>, session: string, signal: AbortSignal, budget: ReplyBudget, compact = false): Promise<Edited> {
  let rp: ResolvedPath;
  try {
    rp = await engine.guard.resolve(target.path, 'write');
  } catch (e) {
    const err = toHashlineError(e);
    if (!GUARD_CODES.includes(err.code)) throw err;
    throw new HashlineError(err.code, `${msg.writePermissionDenied(target.path)}: ${err.message}`, { details: err.details });
  }
  const display = rp.display;
  if (!readAdmitted(engine.guard, rp)) throw new HashlineError('path_blocked', msg.readBlocked(display), { details: { path: display } });
  const tag = tagOf(target.file_hash).toUpperCase();
  if (tag === '') throw new HashlineError('tag_missing', msg.missingTag(display), { details: { path: display } });
  if (!isTag(tag)) throw new HashlineError('tag_malformed', msg.malformedTag(display, target.file_hash), { details: { path: display, tag: target.file_hash } });
  const plan = parseEditOps(target.ops);
  if (!rp.exists) throw new HashlineError('not_found', msg.fileNotFound(display), { details: { path: display } });

  // the replaced file's old bytes are freed in the thread pool while the reply is made, and awaited before it
  const frees: Promise<void>[] = [];
  // the background parse of the new text starts once those frees are in: started before, it took a
  // core from the free and the reply it delays (about 2 ms a .ts edit of 2,000 lines on 2 cores)
  let warm: (() => void) | undefined;
  return engine.locks.withLocks(
    [rp.real],
    async () => {
      const loaded = await loadForEdit(engine, rp);
      const marker = generatedMarker(loaded.text);
      if (marker !== null) throw new HashlineError('generated_file', generatedRefusal(display, marker), { details: { path: display, marker } });
      // a store that cannot answer synchronously brings the path's versions in first
      await engine.history.load([rp.real]);
      const versions = engine.history.versions(rp.real);
      // A text the session holds is recordable; otherwise the check costs a pass over the text: once, when needed.
      let recordable: boolean | undefined = versions.some((v) => v.text === loaded.text) ? true : undefined;
      const liveRecordable = () => (recordable ??= engine.history.recordable(loaded.text));
      const decision = decideEdit({
        ops: plan.ops,
        tag,
        live: { text: loaded.text, lines: loaded.doc.lines, tag: loaded.tag },
        versions,
        liveUnrecordable: !liveRecordable(),
        resolveBlock: (text, line) => resolveBlock(rp.real, text, line),
        ownEdits: (from) => engine.journal.chain(session, rp.real, from, loaded.text),
        history: historyKind(engine),
      });
      const next = materialize(loaded.doc, decision.pieces);
      // the new bytes and the new LF text, joined once
      const { bytes, text: after, textBytes } = serializeWithText(next);
      const warnings = [...plan.warnings, ...decision.warnings];
      if (after === loaded.text) {
        return { path: display, file_hash: loaded.tag, header: formatHeader(display, loaded.tag), warnings: [...warnings, msg.noChanges(display)] };
      }
      // The text just replaced becomes the newest version before the new one, so that
      // fs_rollback "" undoes exactly this edit even when that text was recorded long ago.
      if (liveRecordable()) {
        engine.history.record(rp.real, loaded.text);
        engine.history.reanchor(rp.real, loaded.text);
      }
      // the write waits on the disk (fsync, rename, fsync of the directory): the tag and the diff
      // are computed meanwhile, and recorded only once the write succeeded
      const saved = writeAtomic(engine.guard, rp, bytes, { signal, frees });
      saved.catch(() => undefined);
      const newTag = docTag(next, bytes);
      const { diff, firstChangedLine } = pieceDiff(
        display,
        { lines: loaded.doc.lines, finalNewline: (loaded.doc.endings[loaded.doc.endings.length - 1] ?? '') !== '' },
        decision.pieces,
        { lines: next.lines, finalNewline: (next.endings[next.endings.length - 1] ?? '') !== '' },
      );
      // a compact reply leaves out the diff of an edit applied as sent (a merge is always shown)
      const terse = compact && (decision.route === 'direct' || decision.route === 'head_tail');
      const shown = diff !== undefined && !terse && diffFits(budget, diff);
      if (diff !== undefined && !shown && !terse) warnings.push(msg.diffLeftOut(display, firstChangedLine));
      const liveVersion = versions.find((v) => v.text === loaded.text);
      const seen = seenAfterEdit(decision.pieces, liveVersion?.seen, shown);
      // while the write waits on the disk: the journal's line map and digest of the new text, and
      // whether the document written may stand for the parse of its bytes (nothing is recorded yet)
      const shape = liveRecordable() ? shapeOf(loaded.doc.lines.length, decision.hunks, decision.pieces) : null;
      const journaled = shape !== null && shape.to === next.lines.length ? shape : null;
      // one SHA-256 of the written bytes serves the journal and the history (when they are the text's own UTF-8) and the reply
      let sha256: string | undefined;
      const sha256Once = () => (sha256 ??= createHash('sha256').update(bytes).digest('hex'));
      if (journaled !== null) engine.journal.prepare(after, textBytes === bytes ? sha256Once() : undefined);
      const reparses = reparsesAs(next, after);
      await saved;
      // the file's stat key with the bytes just written, under its lock: the reply's SHA-256 is theirs while it holds
      const key = statKeyNow(rp.real);
      // the next load of these bytes takes this document for their parse (io/read/written-texts.ts)
      if (reparses) written.remember(rp.real, { bytes, doc: next, text: after, tag: newTag });
      else written.forget(rp.real);
      // (a text longer in UTF-16 units than the byte limit cannot be recorded: skip the scan)
      const recordSha = textBytes === bytes ? sha256Once() : undefined;
      if (after.length <= engine.history.limits.maxSnapshotBytes && recordMade(engine, rp.real, after, { tag: newTag, bytes: textBytes, sha256: recordSha }) !== null) {
        engine.history.markSeen(rp.real, after, seen);
        // this session's next stale edit of the file is carried through this one exactly (a stale
        // edit needs the text it read in the history: both texts are versions there)
        if (journaled !== null) engine.journal.record(session, rp.real, loaded.text, after, journaled);
      }
      // the next structural read of this file finds the new text parsed (lang/parse/warm-after-write.ts)
      warm = () => void warmAfterWrite(rp.real, display, after);
      const result: Edited = { path: display, file_hash: newTag, header: formatHeader(display, newTag), warnings };
      if (firstChangedLine !== undefined) result.first_changed_line = firstChangedLine;
      if (shown) result.diff = diff;
      if (terse) result.summary = changedSpan(decision.pieces, loaded.doc.lines.length);
      if (key !== undefined) result.held = { real: rp.real, bytes, key, sha256: sha256Once };
      return result;
    },
    { signal },
  ).finally(async () => {
    await Promise.all(frees);
    warm?.();
  });
}

/**
 * The text of one result. A compact reply to a call of one target names no path (the caller just
 * sent it): `#TAG`, then the changed lines on the same line; with several targets each keeps its
 * `¶path#TAG` header.
 */
function render(result: Edited, compactOne = false): string {
  const head = compactOne ? `#${result.file_hash}` : result.header;
  const out = [result.summary !== undefined ? `${head} ${result.summary}` : head, ...result.warnings];
  if (result.diff !== undefined) out.push(result.diff.replace(/\n$/, ''));
  return out.join('\n');
}

/** The seed's EditResult (the compact summary lives in the text only). */
function plain(r: Edited): EditResult {
  const { summary: _summary, held: _held, ...rest } = r;
  return rest;
}

export const fsEditTool = defineTool({
  name: 'fs_edit',
  family: 'hashline',
  title: 'Edit by line number',
  description: [
    'Edits by the line numbers you read. Per target: path, file_hash (the TAG of ¶path#TAG), ops lines: `replace N..M:`, `insert after N:` (or before N, head, tail), each then `+TEXT` rows; `delete N..M`; `replace block N:`, `delete block N`. N = N..N; numbers never shift.',
    'Example: {"targets":[{"path":"a.ts","file_hash":"1A2B","ops":"replace 5..7:\\n+x = 1;\\ndelete 10"}]}',
    'A stale edit merges or is refused: re-read, retry.',
  ].join('\n'),
  guide: [
    'Edits existing files by the line numbers of your latest fs_read. Each target gives `path`, `file_hash` (the TAG of its ¶path#TAG header) and `ops`:',
    '`replace N..M:` / `replace N:` then `+TEXT` rows (the final content); `delete N` / `delete N..M` (no body); `insert before N:` / `insert after N:` / `insert head:` / `insert tail:` then `+TEXT` rows; `replace block N:` / `delete block N` for the syntactic block starting on line N.',
    'Numbers refer to the file as you read it and do not shift while hunks apply; one hunk per line; `+` alone is an empty line.',
    'Example: {"targets":[{"path":"src/a.ts","file_hash":"1A2B","ops":"replace 5..7:\\n+const x = 1;\\ndelete 10\\ninsert after 15:\\n+// done"}]}',
    'Returns each file\'s new ¶path#TAG (use it for the next edit without re-reading), the first changed line and a diff (`"reply":"compact"` answers `#TAG changed lines A-B (+N -M)` instead). If the file changed since your read, the edit is merged where the lines it touches now are (moved, or re-indented), else rejected with what changed.',
    'After an error: targets before the failed one are applied (their fresh tags are listed), later ones are skipped. Re-read the failed file with fs_read and retry with its fresh tag; never invent a tag.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    const applied: Array<Edited> = [];
    const budget = new ReplyBudget();
    for (let k = 0; k < args.targets.length; k++) {
      const target = args.targets[k]!;
      try {
        applied.push(await editOne(engine, target, call.sessionId ?? PROCESS_SESSION_ID, call.signal, budget, args.reply === 'compact'));
        call.progress({ progress: k + 1, total: args.targets.length });
      } catch (e) {
        const err = toHashlineError(e);
        const cause = err.code === 'edit_parse_error' ? msg.parseFailed(target.path, err.message) : msg.editFailed(target.path, err.message);
        const skipped = args.targets.slice(k + 1).map((t) => t.path);
        return {
          isError: true,
          text: msg.editBatchError(cause, applied.map((r) => r.header), skipped),
          structured: { failed_path: target.path, cause, code: err.code, applied: await withSha256(engine, applied.map(plain), call.signal, (_r, i) => applied[i]!.held), skipped },
        };
      }
    }
    const compactOne = args.reply === 'compact' && applied.length === 1;
    return { structured: { results: await withSha256(engine, applied.map(plain), call.signal, (_r, i) => applied[i]!.held) }, text: applied.map((r) => render(r, compactOne)).join('\n\n') };
  },
});
