// Offsets of the LF form of a text mapped back to the text in its own line endings. Matching and
// rewriting run on LF text (what tags, patterns and search blocks see); the edits they make are then
// applied to the text as it is on disk, so every untouched line keeps its own terminator (`\r\n`,
// `\n` or a lone `\r`). Offsets are UTF-16 code units.

import { lineAt } from './line-sources.js';
import { splitLines } from './text-doc.js';

export interface LfOffsets {
  /** The LF text (every terminator made `\n`). */
  readonly lf: string;
  /** The offset in the original text of an offset in `lf` (at or past the end: the end). */
  toRaw(offset: number): number;
}

/** The LF form of `raw` and the mapping of its offsets back (identity when `raw` has no CR). */
export function lfOffsets(raw: string): LfOffsets {
  if (!raw.includes('\r')) return { lf: raw, toRaw: (o) => o };
  const { lines, endings } = splitLines(raw);
  const lfStarts: number[] = [];
  const rawStarts: number[] = [];
  let lfPos = 0;
  let rawPos = 0;
  for (let i = 0; i < lines.length; i++) {
    lfStarts.push(lfPos);
    rawStarts.push(rawPos);
    const len = lines[i]!.length;
    const end = endings[i]!;
    lfPos += len + (end === '' ? 0 : 1);
    rawPos += len + end.length;
  }
  const lf = lines.map((l, i) => l + (endings[i] === '' ? '' : '\n')).join('');
  const toRaw = (o: number): number => {
    if (o >= lf.length) return raw.length;
    const line = lineAt(lfStarts, o);
    return rawStarts[line]! + (o - lfStarts[line]!);
  };
  return { lf, toRaw };
}
