// A path's window in the durable history, as the tools see it: its newest versions (text, tag,
// seen lines), loaded from the store in one read of the ranked window and the blobs not already in
// the text cache (texts are cached by SHA-256: content never changes under a hash).

import type { HistoryLimits, Version } from '../../core/history/history-store.js';
import { decodeSeen } from '../../core/history/seen-ranges.js';
import { decodeBytes } from '../../core/text/text-codec.js';
import { loadBlobs, loadRankedWindow, type HeadRow, type Op } from './history-sql.js';
import type { TextCache } from './text-cache.js';

export interface StoredVersion extends Version {
  readonly sha256: string;
}

export interface Window {
  versions: StoredVersion[];
  /** Paths used more recently than this one, as far as this process knows (an upper bound). */
  rank: number;
}

function windowFromRows(rows: readonly HeadRow[], rank: number, blobs: Map<string, Uint8Array>, texts: TextCache): Window {
  const versions: StoredVersion[] = [];
  for (const h of rows) {
    let text = texts.get(h.sha256);
    if (text === undefined) {
      const bytes = blobs.get(h.sha256);
      if (bytes === undefined) continue;
      text = decodeBytes(bytes).text;
      texts.set(h.sha256, text);
    }
    versions.push({ sha256: h.sha256, tag: h.tag, text, seen: decodeSeen(h.seen) });
  }
  return { versions, rank };
}

/** Loads `path`'s window: its ranked versions, and the texts not cached yet. */
export function* loadWindow(root: number, path: string, limits: HistoryLimits, texts: TextCache): Op<Window> {
  const { rows, rank } = yield* loadRankedWindow(root, path, limits);
  const missing = rows.map((r) => r.sha256).filter((s) => !texts.has(s));
  const blobs = missing.length > 0 ? yield* loadBlobs(missing) : new Map<string, Uint8Array>();
  return windowFromRows(rows, rank, blobs, texts);
}
