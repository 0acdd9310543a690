// What a refused stale edit is told: for each hunk that could not be placed, what changed around
// it since the read (its lines changed or went away, its text now sits in several places, it was
// re-indented unlike its neighbours, two hunks now meet), and the next call that shows the lines
// as they are now. Line numbers "as read" are those of the agent's read; "now" those of the file.

import * as msg from '../messages/edit.js';
import { displayText } from '../text/text-codec.js';
import type { HunkFailure } from './place.js';

/** Hunks explained at most (the rest are counted). */
const MAX_EXPLAINED = 4;
/** Characters of a line quoted. */
const QUOTE = 60;
/** Lines shown around the place in the suggested read. */
const AROUND = 5;

function quote(line: string): string {
  const t = displayText(line).trim();
  return t.length > QUOTE ? `${t.slice(0, QUOTE - 1)}…` : t;
}

/** The live line (1-based) nearest to read line i (0-based) that the diff kept, if any. */
function nearestKept(map: Int32Array | null, i: number): number | undefined {
  if (map === null) return undefined;
  for (let k = 0; k < map.length; k++) {
    for (const j of [i - k, i + k]) if (j >= 0 && j < map.length && map[j]! >= 0) return Math.max(1, map[j]! + 1 + (i - j));
  }
  return undefined;
}

function describe(f: HunkFailure, read: readonly string[], map: Int32Array | null): { text: string; near?: number } {
  const lo = Math.max(0, f.window.lo);
  const hi = Math.min(read.length - 1, f.window.hi);
  const span = lo === hi ? `line ${lo + 1}` : `lines ${lo + 1}-${hi + 1}`;
  const near = nearestKept(map, lo);
  switch (f.reason) {
    case 'ambiguous': {
      const c0 = Math.max(0, f.core?.lo ?? lo);
      const c1 = Math.min(read.length - 1, f.core?.hi ?? hi);
      const span = c0 >= c1 ? `line ${c0 + 1}` : `lines ${c0 + 1}-${c1 + 1}`;
      const all = f.places ?? [];
      const places = all.slice(0, 5);
      const where = places.length > 0 ? ` (at lines ${places.join(', ')}${all.length > 5 ? ', …' : ''})` : '';
      const text =
        all.length === 1
          ? `the text you read at ${span} is repeated in what you read, and what changed around it no longer tells which copy is the one now at line ${places[0]}`
          : `the text you read at ${span} now appears ${all.length || 'many'} times${where}; the edit cannot tell which one is meant`;
      return { text, ...((places[0] ?? near) !== undefined ? { near: places[0] ?? near } : {}) };
    }
    case 'whitespace':
      return { text: `${span} were re-indented unlike the lines around them since your read`, ...(near ? { near } : {}) };
    case 'overlap':
      return { text: 'your hunks no longer fit together: after the changes since your read, two of them meet', ...(near ? { near } : {}) };
    case 'absent': {
      if (map !== null) {
        for (let i = lo; i <= hi; i++) {
          if (map[i]! < 0) {
            const now = nearestKept(map, i);
            return { text: `line ${i + 1} changed or was deleted since your read (you read: \`${quote(read[i]!)}\`)${now ? `; the lines around it are now near line ${now}` : ''}`, ...(now ? { near: now } : {}) };
          }
        }
        return { text: `lines were inserted or deleted inside ${span} since your read`, ...(near ? { near } : {}) };
      }
      return { text: `${span} changed since your read (with many other lines of the file)` };
    }
  }
}

/** The "what changed" and "next call" lines of a refusal. */
export function explainRefusal(failures: readonly HunkFailure[], read: readonly string[], map: Int32Array | null): string {
  const out: string[] = [];
  let near: number | undefined;
  for (const f of failures.slice(0, MAX_EXPLAINED)) {
    const d = describe(f, read, map);
    near ??= d.near;
    out.push(msg.hunkNotPlaced(f.hunk.dslLine, d.text));
  }
  if (failures.length > MAX_EXPLAINED) out.push(msg.moreHunksNotPlaced(failures.length - MAX_EXPLAINED));
  out.push(near === undefined ? msg.NEXT_CALL_WHOLE : msg.nextCallRange(Math.max(1, near - AROUND), near + AROUND));
  return out.join('\n');
}
