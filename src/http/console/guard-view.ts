// What the console's guard page shows: the roots, the allow and block lists, the read scopes (the
// read lists, or "same as the write lists"), the files protected from writes and sealed from both,
// the configuration generation in force (and why the newest edit of the file was refused), and the
// history store with its counts. Paths are shown as configured; nothing here reads a file.

import type { HistoryStatus } from '../../core/history/history-store.js';
import type { Engine } from '../../tools/engine.js';

export interface GuardView {
  readonly roots: readonly { readonly path: string; readonly real: string }[];
  readonly allow: readonly string[];
  readonly block: readonly string[];
  /** null: reads follow the allow and block lists. */
  readonly readAllow: readonly string[] | null;
  readonly readBlock: readonly string[] | null;
  readonly protect: readonly string[];
  readonly seal: readonly string[];
  readonly configuration: {
    readonly generation: number;
    readonly identity: string;
    readonly file: string | null;
    readonly lastError: { readonly message: string; readonly at: string } | null;
    readonly requireHash: boolean;
    readonly readModes: readonly string[];
    readonly patchStrategies: readonly string[];
    readonly aiderMatchers: readonly string[];
  };
  readonly history: HistoryStatus & { readonly stats: { entries: number; blobs: number; blobBytes: number; fileBytes?: number } | null };
}

export async function guardView(engine: Engine): Promise<GuardView> {
  const g = engine.guard;
  const lists = g.lists;
  const state = engine.configState();
  const s = state.settings;
  const query = engine.history.query;
  const stats = query === undefined ? null : await query.stats().catch(() => null);
  return {
    roots: g.roots.map((r, i) => ({ path: r, real: g.realRoots[i] ?? r })),
    allow: [...lists.allow],
    block: [...lists.block],
    readAllow: lists.readAllow === undefined ? null : [...lists.readAllow],
    readBlock: lists.readBlock === undefined ? null : [...lists.readBlock],
    protect: [...new Set(lists.protect ?? [])],
    seal: [...new Set(lists.seal ?? [])],
    configuration: {
      generation: state.generation,
      identity: state.identity,
      file: state.file ?? null,
      lastError: state.lastError ?? null,
      requireHash: s.requireHash,
      readModes: [...s.readModes],
      patchStrategies: [...s.patchStrategies],
      aiderMatchers: [...s.aiderMatchers],
    },
    history: { ...engine.history.status(), stats },
  };
}
