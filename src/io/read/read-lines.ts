// Loads what a read needs from a verified file, streaming: every line (whole-file reads), only the
// lines of some ranges (range reads), or the whole text (block and symbol reads, which parse).
// What is collected is bounded by a byte allowance, so a read of a huge file holds only the lines
// the reply can carry; the whole-file tag and the line count always come from the full stream.

import { HashlineError } from '../../core/errors/errors.js';
import type { LineSource } from '../../core/read/read-render.js';
import type { Scope } from '../../core/config/path-policy.js';
import { scanBytes, scanLines, type LineScan } from './line-reader.js';
import { readVerifiedSync } from './read-verified-sync.js';
import { openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

/** Block and symbol reads parse the whole file; larger files are refused with a warning. */
export const MAX_PARSE_BYTES = 16 * 1024 * 1024;

export type LoadedLines = LineScan & LineSource & {
  readonly size: number;
  /** A small file's bytes as read and its stat key then (read at once, so kept at no cost). */
  readonly read?: { readonly bytes: Uint8Array; readonly key: string };
};

export interface CollectOptions {
  /** Which lines to keep (default: all). */
  want?: (n: number) => boolean;
  /** Stop keeping lines once their UTF-16 length sum passes this (default: no bound). */
  allowance?: number;
  /** Keep at most this many UTF-16 units of a line (enough to decide 200-column truncation). */
  maxLineUnits?: number;
  /** Keep the LF text when the file has at most this many bytes. */
  keepTextUpTo?: number;
  signal?: AbortSignal | undefined;
  scope?: Scope;
  /** Refuse (`too_large`) a file over this many bytes. */
  maxBytes?: number;
}

/** Small files are read with synchronous verified calls: one thread-pool hop each costs more. */
export const SYNC_READ_BYTES = 256 * 1024;

function collector(options: CollectOptions): { kept: Map<number, string> | string[]; onLine: (n: number, content: string) => void } {
  if (!options.want && options.maxLineUnits === undefined) {
    // every line from the first, until the allowance is used: a plain array
    const all: string[] = [''];
    let usedAll = 0;
    const cap = options.allowance ?? Number.POSITIVE_INFINITY;
    return {
      kept: all,
      onLine: (_n, content) => {
        if (usedAll > cap) return;
        all.push(content);
        usedAll += content.length + 8;
      },
    };
  }
  const kept = new Map<number, string>();
  let used = 0;
  const allowance = options.allowance ?? Number.POSITIVE_INFINITY;
  const maxUnits = options.maxLineUnits ?? Number.POSITIVE_INFINITY;
  return {
    kept,
    onLine: (n, content) => {
      if (used > allowance) return;
      if (options.want && !options.want(n)) return;
      const line = content.length > maxUnits ? content.slice(0, maxUnits) : content;
      kept.set(n, line);
      used += line.length + 8;
    },
  };
}

function lineOf(kept: Map<number, string> | string[]): (n: number) => string {
  return Array.isArray(kept) ? (n) => kept[n] ?? '' : (n) => kept.get(n) ?? '';
}

export async function loadLines(guard: PathGuard, rp: ResolvedPath, options: CollectOptions = {}): Promise<LoadedLines> {
  const small = readVerifiedSync(guard, rp.real, rp.display, Math.min(SYNC_READ_BYTES, options.maxBytes ?? SYNC_READ_BYTES), options.scope ?? 'read');
  if (small) {
    const { kept, onLine } = collector(options);
    const scan = scanBytes(small.bytes, onLine, { keepTextUpTo: options.keepTextUpTo ?? 0 });
    return { ...scan, size: small.bytes.length, line: lineOf(kept), read: { bytes: small.bytes, key: small.key } };
  }
  const vh = await openVerified(guard, rp, options.scope ?? 'read');
  try {
    if (options.maxBytes !== undefined && vh.size > options.maxBytes) {
      throw new HashlineError(
        'too_large',
        `\`${rp.display}\` is ${vh.size} bytes, over the ${options.maxBytes}-byte limit for block and symbol reads; read it with \`line_range\` instead`,
        { details: { path: rp.display, size: vh.size } },
      );
    }
    const { kept, onLine } = collector(options);
    const scan = await scanLines(vh.handle, vh.size, onLine, { keepTextUpTo: options.keepTextUpTo ?? 0, signal: options.signal });
    return { ...scan, size: vh.size, line: lineOf(kept) };
  } finally {
    await vh.handle.close();
  }
}

/** The whole LF text of a file for parsing, or a `too_large` error above MAX_PARSE_BYTES. */
export async function loadForParse(guard: PathGuard, rp: ResolvedPath, signal?: AbortSignal): Promise<LoadedLines & { text: string }> {
  const loaded = await loadLines(guard, rp, { keepTextUpTo: Number.POSITIVE_INFINITY, signal, maxBytes: MAX_PARSE_BYTES });
  return loaded as LoadedLines & { text: string };
}
