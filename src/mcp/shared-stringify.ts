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
 * io/whole-read-cache.ts) reuses its bytes. A lookup costs what the per-reply map costs already.
 */
const recent = new Map<string, Buffer>();
const RECENT_ENTRIES = 8;
const RECENT_BYTES = 8 * 1024 * 1024;
let recentBytes = 0;

function encodeLong(v: string): Buffer {
  let b = recent.get(v);
  if (b !== undefined) {
    // most recently used last
    recent.delete(v);
    recent.set(v, b);
    return b;
  }
  b = Buffer.from(JSON.stringify(v));
  if (b.length > RECENT_BYTES) return b;
  recent.set(v, b);
  recentBytes += b.length;
  while (recent.size > RECENT_ENTRIES || recentBytes > RECENT_BYTES) {
    const [oldest, ob] = recent.entries().next().value as [string, Buffer];
    recent.delete(oldest);
    recentBytes -= ob.length;
  }
  return b;
}

/** The UTF-8 chunks of JSON.stringify(value) (none where it gives undefined). */
export function encodeSharingStrings(value: unknown): Buffer[] {
  const encoded = new Map<string, Buffer>();
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
        chunks.push(b);
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
