// JSON.stringify for replies that carry one long text twice (a read's content is both the text
// block and a field of structuredContent), straight to UTF-8 chunks: each long string is escaped
// and encoded once and its bytes reused, and nothing is joined (a join copies the long text
// again), so the writer can hand the chunks to one writev. The bytes are exactly those of
// JSON.stringify (no replacer, no indent), which test/mcp/shared-stringify.test.ts checks.

import { Buffer } from 'node:buffer';

/** Strings at least this long are escaped once per reply and reused. */
const SHARED_MIN_LENGTH = 4096;

/**
 * The encodings of the last long strings sent, so a reply that carries one of them again (a whole
 * read of a file whose bytes did not change gives the very same content string, see
 * io/read/whole-read-cache.ts) reuses its bytes. A lookup costs what the per-reply map costs already.
 */
const recent = new Map<string, Buffer[]>();
const RECENT_ENTRIES = 8;
const RECENT_BYTES = 8 * 1024 * 1024;
let recentBytes = 0;

/**
 * Long strings are escaped in slices of this many UTF-16 units, so no JSON text or buffer made
 * for them is larger than about 64 KiB: V8 and malloc serve objects over 128 KiB from fresh
 * pages, and on a VM the page faults of a 160 KB reply's JSON text and buffer cost more than
 * escaping it (see docs/BENCHMARKS.md).
 */
const SLICE_UNITS = 32 * 1024;

/** The bytes of JSON.stringify(v), in slices (a slice of a flat string is not a copy). */
function escapeInSlices(v: string): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; ; ) {
    let end = Math.min(v.length, at + SLICE_UNITS);
    // never between the halves of a surrogate pair: each half alone would be escaped
    if (end < v.length && (v.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
    const whole = at === 0 && end === v.length;
    const j = JSON.stringify(whole ? v : v.slice(at, end));
    // one pair of quotes around the whole: the first slice keeps its opening one, the last its closing one
    out.push(Buffer.from(whole ? j : at === 0 ? j.slice(0, -1) : end === v.length ? j.slice(1) : j.slice(1, -1)));
    if (end === v.length) return out;
    at = end;
  }
}

function encodeLong(v: string): Buffer[] {
  let b = recent.get(v);
  if (b !== undefined) {
    // most recently used last
    recent.delete(v);
    recent.set(v, b);
    return b;
  }
  b = escapeInSlices(v);
  const size = b.reduce((n, x) => n + x.length, 0);
  if (size > RECENT_BYTES) return b;
  recent.set(v, b);
  recentBytes += size;
  while (recent.size > RECENT_ENTRIES || recentBytes > RECENT_BYTES) {
    const [oldest, ob] = recent.entries().next().value as [string, Buffer[]];
    recent.delete(oldest);
    recentBytes -= ob.reduce((n, x) => n + x.length, 0);
  }
  return b;
}

/** The UTF-8 chunks of JSON.stringify(value) (none where it gives undefined). */
export function encodeSharingStrings(value: unknown): Buffer[] {
  const encoded = new Map<string, Buffer[]>();
  const chunks: Buffer[] = [];
  let small: string[] = [];
  const flush = () => {
    if (small.length > 0) chunks.push(Buffer.from(small.join('')));
    small = [];
  };
  /** Appends the JSON of `v`; false (nothing appended) where JSON.stringify would leave it out. */
  const write = (v: unknown): boolean => {
    if (typeof v === 'string') {
      if (v.length < SHARED_MIN_LENGTH) small.push(JSON.stringify(v));
      else {
        let b = encoded.get(v);
        if (b === undefined) encoded.set(v, (b = encodeLong(v)));
        flush();
        chunks.push(...b);
      }
      return true;
    }
    if (v === null || typeof v !== 'object' || v instanceof String || v instanceof Number || v instanceof Boolean) {
      const s = JSON.stringify(v) as string | undefined;
      if (s === undefined) return false;
      small.push(s);
      return true;
    }
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return write((v as { toJSON: () => unknown }).toJSON());
    if (Array.isArray(v)) {
      small.push('[');
      v.forEach((x, i) => {
        if (i > 0) small.push(',');
        if (!write(x)) small.push('null');
      });
      small.push(']');
      return true;
    }
    small.push('{');
    let first = true;
    for (const key of Object.keys(v)) {
      const before = { chunks: chunks.length, small: small.length };
      small.push(first ? '' : ',', JSON.stringify(key), ':');
      if (write((v as Record<string, unknown>)[key])) first = false;
      else {
        // left out: nothing long was written for it, so the pending pieces are simply cut back
        chunks.length = before.chunks;
        small.length = before.small;
      }
    }
    small.push('}');
    return true;
  };
  if (!write(value)) return [];
  flush();
  return chunks;
}

/** True when a message carries a text block long enough for sharing to pay (a tool result). */
export function carriesLongText(message: unknown): boolean {
  const content = (message as { result?: { content?: unknown } }).result?.content;
  if (!Array.isArray(content)) return false;
  return content.some((c) => typeof (c as { text?: unknown })?.text === 'string' && (c as { text: string }).text.length >= SHARED_MIN_LENGTH);
}
