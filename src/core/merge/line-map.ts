// Which lines of one text survive unchanged in another: a line diff (jsdiff's Myers diff, after
// trimming the common head and tail) read as a map from old line index to new line index. A diff
// costs O(lines x differences): past `maxEdits` differences (a whole file re-indented) it gives up
// and says so with null.

import { diffArrays } from 'diff';

/** For each line of `from` (0-based), its index in `to` when the diff keeps it, else -1; null past `maxEdits` differences. */
export function lineMap(from: readonly string[], to: readonly string[], maxEdits?: number): Int32Array | null {
  const map = new Int32Array(from.length).fill(-1);
  let p = 0;
  while (p < from.length && p < to.length && from[p] === to[p]) {
    map[p] = p;
    p++;
  }
  let s = 0;
  while (s < from.length - p && s < to.length - p && from[from.length - 1 - s] === to[to.length - 1 - s]) {
    map[from.length - 1 - s] = to.length - 1 - s;
    s++;
  }
  const a = from.slice(p, from.length - s);
  const b = to.slice(p, to.length - s);
  if (a.length === 0 || b.length === 0) return map;
  let i = p;
  let j = p;
  const changes = maxEdits === undefined ? diffArrays(a, b) : diffArrays(a, b, { maxEditLength: maxEdits });
  if (changes === undefined) return null;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (change.added) j += count;
    else if (change.removed) i += count;
    else {
      for (let k = 0; k < count; k++) map[i + k] = j + k;
      i += count;
      j += count;
    }
  }
  return map;
}
