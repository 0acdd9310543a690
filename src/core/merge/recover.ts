// Decides how an edit written against a tagged read lands on the live text (spec/hashline.md,
// "3-way merge recovery"). A tag is only a 16-bit hint: the edit applies directly only when the
// live text IS a snapshot the session recorded with that tag. Otherwise (stale tag, or a live
// text that merely collides with the tag) the ops are replayed on that snapshot and moved onto the
// live text when the lines they anchor on, and their neighbours, are unchanged there; failing
// that, the session-chain fallback; failing that, a rejection with the current lines around the
// anchors. Pure: the caller loads, locks and writes.

import { HashlineError } from '../errors.js';
import * as msg from '../messages/edit.js';
import { applyHunks, isIdentity, textLines } from '../edit/apply.js';
import { onlyHeadTail, type BlockResolver, type EditOp, type Hunk, type Piece } from '../edit/ops.js';
import { repairBalance } from '../edit/balance-repair.js';
import { anchorLines, resolvePlan } from '../edit/plan.js';
import { lineMap } from './line-map.js';
import { mismatchContext } from './mismatch.js';
import { remapHunks } from './remap.js';

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
  /** How the history is kept, for the advice after an unknown tag. */
  readonly history?: msg.HistoryKind | undefined;
}

export type EditRoute = 'direct' | 'head_tail' | 'merge' | 'chain' | 'noop';

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
  if (live.tag === tag && candidates.some((v) => v.text === live.text)) return direct('direct', []);
  if (onlyHeadTail(req.ops)) return direct('head_tail', [msg.HEAD_TAIL_ON_STALE]);

  let firstHunks: Hunk[] | undefined;
  for (const snap of candidates) {
    const snapLines = textLines(snap.text);
    // Line numbers (and blocks) refer to the snapshot the agent read.
    const { hunks, warnings: repaired } = planOn(req.ops, snap.text, snapLines, req.resolveBlock);
    firstHunks ??= hunks;
    const replay = applyHunks(snapLines, hunks);
    if (isIdentity(snapLines.length, replay)) {
      return { pieces: live.lines.map((_, src) => ({ src })), warnings: [], route: 'noop', hunks: [] };
    }
    const isNewest = snap === newest;
    const moved = remapHunks(hunks, lineMap(snapLines, live.lines), live.lines.length);
    if (moved !== null) {
      const warning = isNewest ? msg.RECOVERED_PREVIOUS_READ : msg.RECOVERED_EARLIER_SNAPSHOT;
      return { pieces: applyHunks(live.lines, moved), warnings: [...repaired, warning, ...unseenWarning(hunks, snap.seen)], route: 'merge', hunks: moved };
    }
    if (!isNewest && snapLines.length === live.lines.length && anchorLines(hunks).every((n) => snapLines[n - 1] === live.lines[n - 1])) {
      return {
        pieces: applyHunks(live.lines, hunks),
        warnings: [...repaired, msg.RECOVERED_BY_REPLAY, ...unseenWarning(hunks, snap.seen)],
        route: 'chain',
        hunks,
      };
    }
  }
  const context = mismatchContext(live.lines, anchorLines(firstHunks ?? []));
  throw new HashlineError('edit_rejected', msg.fileChanged(tag, live.tag) + (context === '' ? '' : `\n\n${context}`), {
    details: { expected: tag, actual: live.tag },
  });
}
