// What every tool does after it changed a file on disk: the versions before and after go to the
// history (so fs_rollback can undo a change of either family, and the log says which tool of which
// client changed what: the call's engine carries that origin), and caches of the old content are
// dropped. Texts the tools can see as versions are recorded; binary or larger content is kept by a
// durable store for its log (up to `[history] max_version_bytes`); a deletion and a rename are logged.

import { Buffer } from 'node:buffer';
import type { HistoryOrigin, RecordOptions } from '../core/history/history-store.js';
import { lfText, textShape, type TextShape } from '../core/text/text-doc.js';
import { forgetFile } from '../lang/symbols/symbol-search.js';
import type { Engine } from './engine.js';
import { decodedShape, rememberShape } from './decoded-texts.js';

/** What a caller already knows of bytes it hands over: their SHA-256, and their shape (textShape of the same bytes). */
export interface KnownContent {
  readonly sha256?: string | undefined;
  readonly shape?: TextShape | undefined;
}

/**
 * The shape of the UTF-8 encoding of `raw` (after a BOM when `bom`), read off the string: what
 * decoding those bytes gives. Only for a string with no lone surrogate that does not start with
 * U+FEFF unless `bom` (the caller checks): its encoding then decodes back to it.
 */
export function shapeOfText(raw: string, bom: boolean): TextShape {
  const at = raw.search(/[\r\n]/);
  const eol = at === -1 || raw[at] === '\n' ? '\n' : raw[at + 1] === '\n' ? '\r\n' : '\r';
  return { bom, eol, utf8: true, raw, text: lfText(raw) };
}

/** The text of `bytes` for the history, and `bytes` again (with their SHA-256 when known) when they are that text's own UTF-8. */
function textOf(engine: Engine, bytes: Uint8Array, known: KnownContent = {}): { text: string; utf8Of?: Uint8Array; sha256?: string } | null {
  // a text longer in bytes than the history keeps is not decoded at all
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length > engine.history.limits.maxSnapshotBytes * 3 || buf.indexOf(0) !== -1) return null;
  const sha256 = known.sha256;
  let shape = known.shape ?? (sha256 === undefined ? undefined : decodedShape(sha256));
  if (shape === undefined) shape = textShape(bytes);
  // the next change of the file starts from these bytes: found again by their hash (decoded-texts.ts)
  if (sha256 !== undefined) rememberShape(sha256, shape);
  if (!engine.history.recordable(shape.text)) return null;
  // no BOM, no CR, valid UTF-8: the bytes are encodeText(text), which the history need not redo
  if (shape.bom || !shape.utf8 || buf.indexOf(0x0d) !== -1) return { text: shape.text };
  return { text: shape.text, utf8Of: bytes, ...(sha256 === undefined ? {} : { sha256 }) };
}

/**
 * Records `text` as written by a tool and makes it the newest version of `real`. Recording a text
 * the window already holds keeps its place, and a write first makes the text it replaces the
 * newest: without this, the same edit made again after a rollback (A → B, rollback to A, A → B)
 * would leave A newer than B, and fs_rollback "" would answer that B is the oldest version.
 * (A rollback records its target with `record`: walking back keeps the order.)
 */
export function recordMade(engine: Engine, real: string, text: string, options: Omit<RecordOptions, 'kind'> = {}): string | null {
  const h = engine.history;
  const tag = h.record(real, text, { ...options, kind: 'made' });
  if (tag !== null && h.head(real)?.text !== text) h.reanchor(real, text, options.origin === undefined ? {} : { origin: options.origin });
  return tag;
}

/** The largest old content a change should hand back for the history (text versions or stored content). */
export function keepBeforeBytes(engine: Engine): number {
  return Math.max(engine.history.limits.maxSnapshotBytes * 3, engine.history.limits.maxStoredBytes);
}

/**
 * Records `before` (when the file existed) and `after` (when it still exists) of the file at `real`.
 * `after` null: the file exists but its new content was not kept (too large for the history).
 * `origin` overrides the call's (an HTTP PUT names itself). Returns the tag `before` was kept
 * under as a text version (null: not kept as text).
 */
export function recordChange(
  engine: Engine,
  real: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined | null,
  origin?: HistoryOrigin,
): string | null {
  return recordChangeTags(engine, real, before, after, origin).before;
}

/**
 * recordChange, returning the tags `before` and `after` were kept under as text versions (null:
 * not kept as text): a reply names the bytes it wrote by the tag without computing it again.
 * `known`: what the caller already has of either side (its SHA-256, its decoded shape), not computed again.
 */
export function recordChangeTags(
  engine: Engine,
  real: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined | null,
  origin?: HistoryOrigin,
  known: { before?: KnownContent; after?: KnownContent } = {},
): { before: string | null; after: string | null } {
  forgetFile(real);
  const h = engine.history;
  const o = origin === undefined ? {} : { origin };
  let kept: string | null = null;
  if (before !== undefined) {
    const old = textOf(engine, before, known.before);
    if (old !== null) {
      kept = h.record(real, old.text, { ...o, ...(old.utf8Of ? { bytes: old.utf8Of, sha256: old.sha256 } : {}) });
      h.reanchor(real, old.text, o);
    } else h.keep(real, before, { ...o, kind: 'seen' });
  }
  if (after === undefined) {
    h.keep(real, undefined, { ...o, kind: 'made' });
    return { before: kept, after: null };
  }
  if (after === null) return { before: kept, after: null };
  const now = textOf(engine, after, known.after);
  if (now !== null) return { before: kept, after: recordMade(engine, real, now.text, { ...o, ...(now.utf8Of ? { bytes: now.utf8Of, sha256: now.sha256 } : {}) }) };
  h.keep(real, after, { ...o, kind: 'made' });
  return { before: kept, after: null };
}

/** Moves the history of a renamed file with it (and logs the rename at both paths). */
export function recordRename(engine: Engine, from: string, to: string, origin?: HistoryOrigin): void {
  forgetFile(from);
  forgetFile(to);
  engine.history.rename(from, to, origin === undefined ? {} : { origin });
}
