// file_read's source map: the top-level symbols of a parsed file (kind, name, zero-based
// end-exclusive lines) with the symbols directly inside each (a class's methods), from the same
// outline fs_outline shows.

import type { SgRoot } from '@ast-grep/napi';
import { outlineOf } from './outline.js';
import type { LanguageInfo } from '../grammar/registry.js';

export interface SourceMapEntry {
  name: string;
  kind: string;
  /** [start, end): zero-based, end-exclusive. */
  lines: [number, number];
  children?: Array<{ name: string; kind: string; lines: [number, number] }>;
}

export function sourceMap(lang: LanguageInfo, root: SgRoot): SourceMapEntry[] {
  const out: SourceMapEntry[] = [];
  for (const s of outlineOf(lang, root)) {
    const entry = { name: s.name, kind: s.kind, lines: [s.start - 1, s.end] as [number, number] };
    if (s.depth === 0) out.push(entry);
    else if (s.depth === 1 && out.length > 0) (out[out.length - 1]!.children ??= []).push(entry);
  }
  return out;
}
