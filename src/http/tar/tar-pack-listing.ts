// The packing of GET /v1/fs/tar, run while the archive is sent: goes through the listing
// (tar-walk.ts) in archive order, opens each directory again with the listing's checks (no final
// link, the descriptor's real path the listed one and inside the read policy), and hands its files
// in slices of SLICE_FILES to tar-walk-slices.ts, which packs them (open through the directory's
// descriptor, fstat, and for a small file its header, content and padding) on this thread or on the
// read thread, into the archive's runs (tar-pack-arena.ts). Directories' and links' headers come
// from the listing's lstats. It starts once the listing has ended (the read thread takes the
// listing's sizes first). `pause` is awaited after each slice: it lets the event loop
// run and holds the packing while enough is packed ahead of the socket. A directory that cannot be
// opened again (gone, or no longer that directory) has its files left out.

import { HEADER_ROOM, writeOtherHeader } from './tar-header.js';
import type { PackArena } from './tar-pack-arena.js';
import type { TreeEntry } from './tar-tree-entry.js';
import { openDir, type ListedDir, type TreeListing } from './tar-walk.js';
import { SLICE_FILES, WalkSlices } from './tar-walk-slices.js';

/** How the send paces the packing (tar-writer.ts). */
export interface PackPace {
  /** Awaited after each slice and directory: lets the event loop run, waits while enough is packed ahead. */
  pause: () => Promise<void>;
  /** The stream ended (the client went away): the packing returns. */
  stopped: () => boolean;
  /** The send has nothing packed to go on with. */
  starving: () => boolean;
}

/**
 * Packs `listing` into `arena` in archive order, awaiting `pace.pause` after each slice and directory;
 * returns early once `pace.stopped()` (the client went away). Every descriptor it opens is closed and no
 * slice is left with the read thread when it returns or throws.
 */
export async function packListing(listing: TreeListing, arena: PackArena<TreeEntry>, pace: PackPace): Promise<void> {
  const { pause, stopped } = pace;
  const { root } = listing;
  // the read thread takes the listing's sizes first (tar-list-sizes.ts): the packing starts once the listing ends
  while (!listing.complete) await new Promise<void>((resolve) => (listing.onGrow = resolve));
  if (stopped() || root.mode === undefined) return; // the directory went away before its listing: an empty archive, as before
  const slices = new WalkSlices(arena, (e) => packOther(arena, e), listing.pool);
  try {
    slices.other(root);
    for (const dir of listing.dirs) {
      if (stopped()) break;
      await packDir(listing, dir, slices, pace);
      if (stopped()) return;
      await slices.pace();
      await pause();
      if (stopped()) return;
    }
    await slices.finish();
  } finally {
    await slices.settle();
    arena.flush();
  }
}

async function packDir(listing: TreeListing, dir: ListedDir, slices: WalkSlices, pace: PackPace): Promise<void> {
  const { pause, stopped } = pace;
  const opened = openDir(listing.guard, dir.abs);
  if (opened === null) {
    // its files are left out; the headers of its directories and links are the listing's
    for (const m of dir.members) if (typeof m !== 'string') slices.other(m);
    return;
  }
  try {
    let names: string[] = [];
    let rels: string[] = [];
    for (const m of dir.members) {
      if (typeof m !== 'string') {
        if (names.length > 0) {
          slices.files(opened, dir.relDir, names, rels);
          names = [];
          rels = [];
        }
        slices.other(m);
        continue;
      }
      names.push(m);
      rels.push(dir.relDir + m);
      if (names.length === SLICE_FILES) {
        // while the send has packed members to go on with, slices go to the read thread only; this
        // thread packs one itself when the send would wait
        if (!pace.starving()) await slices.threadRoom();
        slices.files(opened, dir.relDir, names, rels);
        names = [];
        rels = [];
        await slices.pace();
        await pause();
        if (stopped()) return;
      }
    }
    if (names.length > 0) slices.files(opened, dir.relDir, names, rels);
  } finally {
    slices.listed(opened);
  }
}

/** A directory's or link's header into the arena, or the entry for the writer when the hold is full. */
function packOther(arena: PackArena<TreeEntry>, e: TreeEntry): void {
  const buf = arena.room(HEADER_ROOM);
  const end = arena.at + writeOtherHeader(buf, arena.at, e.kind as 'dir' | 'link', e.rel, e.mode!, e.mtimeMs ?? 0, e.target ?? '');
  if (!arena.keep(end)) arena.add(e);
}
