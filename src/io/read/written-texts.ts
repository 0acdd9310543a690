// What this process last wrote to a path, with the document those exact bytes parse to (its lines,
// LF text and tag), so that loading the file again spares the decode, the line split and the tag
// when the bytes read are still the bytes written: an agent edits the file it just edited. A load
// compares the bytes it read with the ones kept (one memcmp); any difference, and the file is
// parsed as always. Only documents that parse back to themselves are kept (core/text/text-doc.ts
// reparsesAs). Bounded: the least recently written paths go first.

import { Buffer } from 'node:buffer';
import type { TextDoc } from '../../core/text/text-doc.js';

export interface WrittenText {
  /** The exact bytes written. */
  readonly bytes: Uint8Array;
  /** What parseDocAndText and docTag give for them. */
  readonly doc: TextDoc;
  readonly text: string;
  readonly tag: string;
}

/** Paths kept, and the size past which a file is not kept. */
export const WRITTEN_PATHS = 16;
export const WRITTEN_MAX_BYTES = 1024 * 1024;

/** Loads that found their bytes kept (tests count work, not time). */
export const writtenStats = { used: 0 };

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class WrittenTexts {
  private readonly byPath = new Map<string, WrittenText>();

  /** Keeps `written` as what `real` now holds (the caller checked reparsesAs). */
  remember(real: string, written: WrittenText): void {
    this.byPath.delete(real);
    if (written.bytes.byteLength > WRITTEN_MAX_BYTES) return;
    this.byPath.set(real, written);
    while (this.byPath.size > WRITTEN_PATHS) this.byPath.delete(this.byPath.keys().next().value as string);
  }

  forget(real: string): void {
    this.byPath.delete(real);
  }

  /** What was written to `real` when `bytes` are exactly those bytes. */
  match(real: string, bytes: Uint8Array): WrittenText | undefined {
    const w = this.byPath.get(real);
    if (w === undefined || w.bytes.byteLength !== bytes.byteLength) return undefined;
    if (!view(w.bytes).equals(view(bytes))) return undefined;
    writtenStats.used++;
    return w;
  }
}
