// Decides how an edit written against a tagged read lands on the live text (spec/hashline.md,
// "3-way merge recovery"). A tag is only a 16-bit hint: the edit applies directly only when the
// live text IS a snapshot the session recorded with that tag. Otherwise (stale tag, or a live
// text that merely collides with the tag) the ops are planned on that snapshot and each hunk is
// placed on the live text where its lines and one unchanged line on each side now sit, found by
// their text (place.ts): shifted by drift, moved with their block, or re-indented by a formatter
// (rows re-indented the same way). When the session's own edits, as this server applied them,
// lead from the text read to the live text, each hunk is carried through their exact line maps
// (edit-shape.ts); failing that, when the session's own later version is what changed the text, a
// hunk needs only its own lines unchanged (the session-chain rule). A place that is not unique
// is no place. Failing that, a rejection that says what changed and which call to make next,
// with the current lines around the anchors. Pure: the caller loads, locks and writes.

import { HashlineError } from '../errors/errors.js';
import * as msg from '../messages/edit.js';
import { applyHunks, isIdentity, textLines } from '../edit/apply.js';
import { onlyHeadTail, type BlockResolver, type EditOp, type Hunk, type Piece } from '../edit/ops.js';
import { repairBalance } from '../edit/balance-repair.js';
import { anchorLines, resolvePlan } from '../edit/plan.js';
import { carryHunks, type EditShape } from './edit-shape.js';
import { explainRefusal } from './explain.js';
import { lineMap } from './line-map.js';
import { mismatchContext } from './mismatch.js';
import { placeHunks, type HunkFailure, type HunkNote } from './place.js';

/** Unchanged lines required on each side of a hunk (0 when the session's own edit changed the text). */
export const MERGE_MARGIN = 1;
/** Differences past which the line diff (used to tell moves from shifts, and to explain) gives up. */
const MAP_MAX_EDITS = 1000;

export interface SessionVersion {
  readonly tag: string;
  readonly text: string;
  /** 1-based lines of this version the agent was shown. */
  readonly seen: ReadonlySet<number>;
}

export interface EditRequest {
  readonly ops: readonly EditOp[];
  /** The tag the agent sent (any case). */
  readonly tag: string;
  /** The live file: its LF text, lines and tag. */
  readonly live: { readonly text: string; readonly lines: readonly string[]; readonly tag: string };
  /** This session's versions of the file, oldest first. */
  readonly versions: readonly SessionVersion[];
  /**
   * True when the live text cannot be kept in the history (over the size limit, or NUL bytes): no
   * read could have recorded it, so a tag equal to the live tag is accepted without a snapshot.
   */
  readonly liveUnrecordable?: boolean;
  readonly resolveBlock?: BlockResolver | undefined;
  /**
   * The session's own edits, as this server applied them, that lead from this text to the live
   * text (oldest first), or null when they do not (someone else changed the file along the way).
   */
  readonly ownEdits?: ((from: string) => readonly EditShape[] | null) | undefined;
  /** How the history is kept, for the advice after an unknown tag. */
  readonly history?: msg.HistoryKind | undefined;
}

/** `carried`: through the session's own edits as applied (exact); `chain`: the session-chain fallback by text. */
export type EditRoute = 'direct' | 'head_tail' | 'merge' | 'carried' | 'chain' | 'noop';

export interface EditDecision {
  /** The edited file as pieces of the live lines (see edit/apply.ts). */
  readonly pieces: Piece[];
  readonly warnings: string[];
  readonly route: EditRoute;
  /** The hunks as applied to the live lines (for seen-line bookkeeping). */
  readonly hunks: readonly Hunk[];
}

/** The plan resolved on a text, with the boundary-balance repair applied against its lines. */
function planOn(ops: readonly EditOp[], text: string, lines: readonly string[], resolveBlock: BlockResolver | undefined) {
  return repairBalance(lines, resolvePlan(ops, { lineCount: lines.length, text, resolveBlock }));
}

function unseenWarning(hunks: readonly Hunk[], seen: ReadonlySet<number>): string[] {
  const unseen = anchorLines(hunks).filter((n) => !seen.has(n));
  return unseen.length > 0 ? [msg.unseenAnchors(unseen)] : [];
}

/** Where and how the edit lands; throws a coded error when it must not. */
export function decideEdit(req: EditRequest): EditDecision {
  const tag = req.tag.toUpperCase();
  const { live } = req;
  const candidates = req.versions.filter((v) => v.tag === tag).reverse();
  const newest = req.versions[req.versions.length - 1];

  const direct = (route: EditRoute, warnings: string[]): EditDecision => {
    const plan = planOn(req.ops, live.text, live.lines, req.resolveBlock);
    return { pieces: applyHunks(live.lines, plan.hunks), warnings: [...warnings, ...plan.warnings], route, hunks: plan.hunks };
  };

  if (candidates.length === 0) {
    if (live.tag === tag && req.liveUnrecordable === true) return direct('direct', []);
    throw new HashlineError('tag_unknown', msg.notFromSession(tag, live.tag, req.history), { details: { expected: tag, actual: live.tag } });
  }
  if (live.tag === tag && candidates.some((v) => v.text === live.text)) {
    // a 16-bit tag can name two versions of this session: the current text is the one it names now
    return direct('direct', candidates.some((v) => v.text !== live.text) ? [msg.tagNamesTwoVersions(tag)] : []);
  }
  if (onlyHeadTail(req.ops)) return direct('head_tail', [msg.HEAD_TAIL_ON_STALE]);

  // the session's own later version: the agent made (or read) the change it is editing across
  const liveAt = req.versions.findIndex((v) => v.text === live.text);
  let refusal: { hunks: Hunk[]; failures: HunkFailure[]; read: string[]; map: Int32Array | null } | undefined;
  for (const snap of candidates) {
    const snapLines = textLines(snap.text);
    // Line numbers (and blocks) refer to the snapshot the agent read.
    const { hunks, warnings: repaired } = planOn(req.ops, snap.text, snapLines, req.resolveBlock);
    const replay = applyHunks(snapLines, hunks);
    if (isIdentity(snapLines.length, replay)) {
      return { pieces: live.lines.map((_, src) => ({ src })), warnings: [], route: 'noop', hunks: [] };
    }
    // the session's own edits since this read: their line maps are exact, no text is searched
    const own = req.ownEdits?.(snap.text);
    const carried = own ? carryHunks(hunks, own, snapLines, live.lines) : null;
    if (carried !== null) {
      return {
        pieces: applyHunks(live.lines, carried),
        warnings: [...repaired, msg.RECOVERED_EARLIER_SNAPSHOT, ...unseenWarning(hunks, snap.seen)],
        route: 'carried',
        hunks: carried,
      };
    }
    const map = lineMap(snapLines, live.lines, MAP_MAX_EDITS);
    let route: EditRoute = 'merge';
    let placed = placeHunks(hunks, { read: snapLines, live: live.lines, margin: MERGE_MARGIN, map });
    if (!placed.ok && liveAt > req.versions.indexOf(snap)) {
      const chained = placeHunks(hunks, { read: snapLines, live: live.lines, margin: 0, map });
      if (chained.ok) {
        placed = chained;
        route = 'chain';
      }
    }
    if (placed.ok) {
      const recovered = route === 'chain' ? msg.RECOVERED_BY_REPLAY : snap === newest ? msg.RECOVERED_PREVIOUS_READ : msg.RECOVERED_EARLIER_SNAPSHOT;
      return {
        pieces: applyHunks(live.lines, placed.hunks),
        warnings: [...repaired, recovered, ...noteWarnings(placed.notes), ...unseenWarning(hunks, snap.seen)],
        route,
        hunks: placed.hunks,
      };
    }
    refusal ??= { hunks, failures: placed.failures, read: snapLines, map };
  }
  const anchors = anchorLines(refusal?.hunks ?? []).map((n) => {
    // the current lines around each anchor: where the diff kept it, else the same number
    const m = refusal?.map?.[n - 1];
    return m !== undefined && m >= 0 ? m + 1 : n;
  });
  const context = mismatchContext(live.lines, anchors);
  const why = refusal ? `\n${msg.WHAT_CHANGED}\n${explainRefusal(refusal.failures, refusal.read, refusal.map)}` : '';
  throw new HashlineError('edit_rejected', msg.fileChanged(tag, live.tag) + why + (context === '' ? '' : `\n\n${context}`), {
    details: { expected: tag, actual: live.tag, ...(refusal ? { reasons: refusal.failures.map((f) => ({ dslLine: f.hunk.dslLine, reason: f.reason })) } : {}) },
  });
}

/** The warnings of hunks placed away from where they were read. */
function noteWarnings(notes: readonly HunkNote[]): string[] {
  const out: string[] = [];
  const moved = notes.filter((n): n is Extract<HunkNote, { kind: 'moved' }> => n.kind === 'moved');
  if (moved.length > 0) out.push(msg.movedByText(moved));
  const ws = notes.filter((n): n is Extract<HunkNote, { kind: 'whitespace' }> => n.kind === 'whitespace');
  if (ws.length > 0) out.push(msg.whitespaceMerged(ws.map((n) => n.at), ws.some((n) => n.reindented)));
  return out;
}
