// The range rule of GET /v1/fs/file (spec/http.md), stated once: the daemon applies it before it
// opens the file and the client before it sends the request, so both refuse the same ranges with
// the same words. Also the byte slicer that cuts a window out of a stream: a line owns its `\n`.

import { BOUNDS_NOT_INTEGERS, endBeforeStart, PATH_REQUIRED, START_LINE_ZERO } from '../messages/http.js';

/** A bound as it arrives: a query-string value (daemon) or a number (client). */
export type LineBound = string | number | bigint | undefined | null;

export interface LineWindowQuery {
  path?: string | undefined | null;
  start_line?: LineBound;
  end_line?: LineBound;
}

/** 1-based inclusive lines; `end` undefined means through EOF. */
export interface LineWindow {
  start: number;
  end: number | undefined;
}

export type LineWindowResult =
  | { ok: true; window: LineWindow | null }
  | { ok: false; message: string };

const U64_MAX = (1n << 64n) - 1n;

/** Parses a bound as an unsigned 64-bit integer; null when absent, undefined when not an integer. */
function parseBound(v: LineBound): bigint | null | undefined {
  if (v === undefined || v === null) return null;
  let n: bigint;
  if (typeof v === 'bigint') n = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) return undefined;
    n = BigInt(v);
  } else {
    if (!/^\+?[0-9]+$/.test(v)) return undefined;
    n = BigInt(v);
  }
  return n < 0n || n > U64_MAX ? undefined : n;
}

const toLine = (n: bigint): number => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));

/**
 * The requested window, `null` when no range was asked for (the un-sliced, byte-identical
 * stream), or why no file could satisfy it. Checks, in order: the path is present, the bounds
 * are integers, start_line is not 0, end_line is not before start_line.
 */
export function lineWindow(query: LineWindowQuery): LineWindowResult {
  if (query.path === undefined || query.path === null) return { ok: false, message: PATH_REQUIRED };
  const start = parseBound(query.start_line);
  const end = parseBound(query.end_line);
  if (start === undefined || end === undefined) return { ok: false, message: BOUNDS_NOT_INTEGERS };
  if (start === null && end === null) return { ok: true, window: null };
  const s = start ?? 1n;
  if (s === 0n) return { ok: false, message: START_LINE_ZERO };
  if (end !== null && end < s) return { ok: false, message: endBeforeStart(end, s) };
  return { ok: true, window: { start: toLine(s), end: end === null ? undefined : toLine(end) } };
}

/**
 * Cuts a line window out of a byte stream fed chunk by chunk. `push` returns the bytes of the
 * chunk inside the window (a view, no copy); once `done` is true nothing more is needed.
 */
export class LineSlicer {
  private readonly start: number;
  private readonly end: number;
  /** The 1-based number of the line the next byte belongs to. */
  private line = 1;
  done = false;

  constructor(window: LineWindow) {
    this.start = window.start;
    this.end = window.end ?? Infinity;
  }

  push(chunk: Uint8Array): Uint8Array {
    if (this.done) return chunk.subarray(0, 0);
    let from = this.line >= this.start ? 0 : -1;
    let pos = 0;
    while (pos < chunk.length) {
      if (from < 0) {
        // skip to the newline that ends line start-1
        const nl = chunk.indexOf(10, pos);
        if (nl < 0) return chunk.subarray(0, 0);
        this.line++;
        pos = nl + 1;
        if (this.line >= this.start) from = pos;
        continue;
      }
      if (this.end === Infinity) return chunk.subarray(from);
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) return chunk.subarray(from);
      if (this.line === this.end) {
        this.done = true;
        this.line++;
        return chunk.subarray(from, nl + 1);
      }
      this.line++;
      pos = nl + 1;
    }
    return from < 0 ? chunk.subarray(0, 0) : chunk.subarray(from);
  }
}

/** Applies a window to bytes held in memory (small files); `null` returns them unchanged. */
export function sliceLines(bytes: Uint8Array, window: LineWindow | null): Uint8Array {
  return window === null ? bytes : new LineSlicer(window).push(bytes);
}
