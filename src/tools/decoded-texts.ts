// Texts decoded lately, by the SHA-256 of their bytes (the same bytes decode to the same text): the
// bytes a change wrote are the bytes the next change of the file starts from, so they are decoded
// once (textShape) and found again by the hash the next change computes anyway. Bounded in count
// and in UTF-16 units; the oldest go first.

import type { TextShape } from '../core/text/text-doc.js';

/** At most this many texts, and this many UTF-16 units in all. */
const KEPT = 16;
const UNITS = 8 * 1024 * 1024;

const shapes = new Map<string, TextShape>();
let units = 0;

const unitsOf = (s: TextShape) => s.text.length + (s.raw === s.text ? 0 : s.raw.length);

/** The shape of the bytes whose SHA-256 (hex) is `sha256`, when decoded lately. */
export function decodedShape(sha256: string): TextShape | undefined {
  return shapes.get(sha256);
}

/** Keeps `shape` as the decoding of the bytes whose SHA-256 is `sha256` (the caller computed both from the same bytes). */
export function rememberShape(sha256: string, shape: TextShape): void {
  const had = shapes.get(sha256);
  if (had !== undefined) {
    units -= unitsOf(had);
    shapes.delete(sha256);
  }
  if (unitsOf(shape) > UNITS) return;
  shapes.set(sha256, shape);
  units += unitsOf(shape);
  while (shapes.size > KEPT || units > UNITS) {
    const [oldest, s] = shapes.entries().next().value as [string, TextShape];
    shapes.delete(oldest);
    units -= unitsOf(s);
  }
}
