// The lines of small files read whole, kept between reads: an agent reads the same file again and
// again, and splitting, hashing and rendering its text again gives the same answer. A verified
// cache: every read still opens the file with every check and reads all of its bytes; the kept
// lines are used only when those bytes and the file's (size, mtime, inode, device) equal what
// they were computed from, so a reply always agrees with the disk. Each entry has a memo for what
// callers derive from the lines (the rendered body). Larger files stream through loadLines.

import { scanBytes } from './line-reader.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { loadLines, SYNC_READ_BYTES, type CollectOptions, type LoadedLines } from './read-lines.js';
import { readVerifiedSync } from './read-verified-sync.js';

/** Lines of a whole file, with a memo that lives as long as the bytes they came from. */
export type WholeLines = LoadedLines & {
  /** What callers derive from these lines, by a key of their own; absent when not cached. */
  readonly memo?: Map<string, unknown>;
  /**
   * The file's bytes when they are exactly the UTF-8 of `text` (`plain`), kept with the lines and
   * never changed: a history that stores the text need not encode it again. Read-only.
   */
  readonly textBytes?: Uint8Array;
  /** The file's bytes as read and its stat key then (read-verified-sync.ts statKey); absent when not cached. Read-only. */
  readonly read?: { readonly bytes: Uint8Array; readonly key: string };
};

interface Entry {
  readonly key: string;
  readonly bytes: Buffer;
  /** Whether the LF text was kept (depends on the caller's keepTextUpTo). */
  readonly keptText: boolean;
  readonly loaded: WholeLines;
}

/** Entries kept, least recently used dropped first; with the text, lines and body, an entry holds ~5x its bytes. */
const MAX_ENTRIES = 16;
const MAX_CACHED_BYTES = 4 * 1024 * 1024;

const entries = new Map<string, Entry>();
let cachedBytes = 0;
let scratch: Buffer | undefined;

function drop(real: string): void {
  const old = entries.get(real);
  if (!old) return;
  cachedBytes -= old.bytes.length;
  entries.delete(real);
}

function keep(real: string, entry: Entry): void {
  drop(real);
  entries.set(real, entry);
  cachedBytes += entry.bytes.length;
  while ((entries.size > MAX_ENTRIES || cachedBytes > MAX_CACHED_BYTES) && entries.size > 0) drop(entries.keys().next().value as string);
}

/** Every line of a small file from its start (a plain array, index = line number). */
function loadAll(bytes: Buffer, keepTextUpTo: number): LoadedLines {
  const all: string[] = [''];
  const scan = scanBytes(bytes, (_n, content) => void all.push(content), { keepTextUpTo });
  return { ...scan, size: bytes.length, line: (n) => all[n] ?? '' };
}

/**
 * The lines of a whole-file read, as `loadLines(guard, rp, options)` gives them for reads without
 * `want` or `maxLineUnits`. Small files keep every line whatever the allowance (a renderer stops at
 * the reply budget before any line the allowance would have left out, see read-render.ts), so
 * their lines can be kept for the next read of the same bytes.
 */
export async function loadWholeLines(guard: PathGuard, rp: ResolvedPath, options: CollectOptions = {}): Promise<WholeLines> {
  if (options.want || options.maxLineUnits !== undefined) return loadLines(guard, rp, options);
  // read into one reused buffer: the bytes are kept (copied) only when they are new
  scratch ??= Buffer.allocUnsafe(SYNC_READ_BYTES);
  const small = readVerifiedSync(guard, rp.real, rp.display, Math.min(SYNC_READ_BYTES, options.maxBytes ?? SYNC_READ_BYTES), options.scope ?? 'read', scratch);
  if (!small) return loadLines(guard, rp, options);
  const keepTextUpTo = options.keepTextUpTo ?? 0;
  const keptText = small.bytes.length <= keepTextUpTo;
  const hit = entries.get(rp.real);
  if (hit && hit.key === small.key && hit.keptText === keptText && hit.bytes.equals(small.bytes)) {
    // most recently used last
    entries.delete(rp.real);
    entries.set(rp.real, hit);
    return hit.loaded;
  }
  const bytes = Buffer.from(small.bytes);
  const scan = loadAll(bytes, keepTextUpTo);
  const loaded: WholeLines = { ...scan, memo: new Map(), ...(scan.plain && scan.text !== undefined ? { textBytes: bytes } : {}), read: { bytes, key: small.key } };
  keep(rp.real, { key: small.key, bytes, keptText, loaded });
  return loaded;
}

/** Drops every kept entry (tests). */
export function clearWholeReadCache(): void {
  entries.clear();
  cachedBytes = 0;
}
