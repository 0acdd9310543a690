// Seen line numbers as a compact string of ranges ("1-120,130,140-150"), as a store keeps them: a
// whole-file read of 100,000 lines is "1-100000".

/** True when `list` holds positive safe integers in strictly increasing order (a whole read's 1..N). */
function ascendingLines(list: readonly number[]): boolean {
  let last = 0;
  for (const n of list) {
    if (!Number.isSafeInteger(n) || n <= last) return false;
    last = n;
  }
  return true;
}

export function encodeSeen(lines: Iterable<number>): string {
  const list = Array.isArray(lines) ? (lines as readonly number[]) : [...lines];
  // lines already in order need no set, filter or sort
  const sorted = ascendingLines(list) ? list : [...new Set(list)].filter((n) => Number.isSafeInteger(n) && n > 0).sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** Adds the lines of `encoded` to `into` (malformed parts are skipped). */
export function decodeSeen(encoded: string, into: Set<number> = new Set()): Set<number> {
  if (encoded === '') return into;
  for (const part of encoded.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    for (let n = a; n <= b && n - a < 10_000_000; n++) into.add(n);
  }
  return into;
}
