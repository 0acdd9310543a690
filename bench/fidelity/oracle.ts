// The independent oracle: what the file should be after an edit, given what happened to it
// between the read and the edit. It never asks the engine. Lines are items that remember which
// line of the original they are (`orig`), so a change made between read and edit is written once,
// in terms of original lines, and applied both to the untouched file (giving what the tools find
// on disk) and to the file with the edit applied (giving the intended result). When the change
// needs an original line the edit replaced, there is no intended result: the edit must be refused.

import { encodeDoc, splitDisk, type Doc, type Eol } from './doc.js';

/** Lines start..end-1 (0-based, of the file as read) become `rows`; start === end inserts before line `start`. */
export interface Hunk {
  readonly start: number;
  readonly end: number;
  readonly rows: readonly string[];
}

export type EditKind = 'body-rewrite' | 'insertion' | 'deletion' | 'rename-local' | 'block-move';

export interface AbstractEdit {
  readonly kind: EditKind;
  /** Sorted by position, disjoint; at most one insertion per gap. */
  readonly hunks: readonly Hunk[];
}

export interface Item {
  readonly orig: number | null;
  readonly text: Buffer;
  /** Which hunk made the line (`ours:2`, `prior:0` ...), null for original lines. */
  readonly group: string | null;
  /** The line as a formatter would also have rewritten it (rows of our edit only). */
  readonly alt?: Buffer;
}

export class Conflict extends Error {}

export interface Items {
  readonly bom: boolean;
  readonly eol: Eol;
  readonly finalNewline: boolean;
  readonly items: readonly Item[];
}

export function itemsOf(doc: Doc): Items {
  return { bom: doc.bom, eol: doc.eol, finalNewline: doc.finalNewline, items: doc.lines.map((text, orig) => ({ orig, text, group: null })) };
}

export function docOf(x: Items): Doc {
  return { bom: x.bom, eol: x.eol, finalNewline: x.finalNewline, lines: x.items.map((i) => i.text) };
}

/** Applies several edits written against the same original (identity items only). Overlaps are a Conflict. */
export function applyEdits(base: Items, edits: ReadonlyArray<{ edit: AbstractEdit; label: string }>): Items {
  const n = base.items.length;
  const inserts = new Map<number, Item[]>();
  const replaced = new Map<number, { end: number; rows: Item[] }>();
  const taken = new Uint8Array(n);
  for (const { edit, label } of edits) {
    edit.hunks.forEach((h, k) => {
      const rows = h.rows.map((r) => ({ orig: null, text: Buffer.from(r, 'utf8'), group: `${label}:${k}` }));
      if (h.start < 0 || h.end > n || h.end < h.start) throw new Error(`hunk out of range: ${h.start}..${h.end} of ${n}`);
      if (h.start === h.end) {
        if (inserts.has(h.start)) throw new Conflict(`two insertions at gap ${h.start}`);
        inserts.set(h.start, rows);
        return;
      }
      for (let i = h.start; i < h.end; i++) {
        if (taken[i]) throw new Conflict(`line ${i} edited twice`);
        taken[i] = 1;
      }
      replaced.set(h.start, { end: h.end, rows });
    });
  }
  const out: Item[] = [];
  for (let i = 0; i <= n; ) {
    const ins = inserts.get(i);
    if (ins) out.push(...ins);
    if (i === n) break;
    const r = replaced.get(i);
    if (r) {
      // an insertion inside a replaced range has no place
      for (let k = i + 1; k < r.end; k++) if (inserts.has(k)) throw new Conflict(`insertion inside a replaced range at ${k}`);
      out.push(...r.rows);
      i = r.end;
      continue;
    }
    out.push(base.items[i]!);
    i++;
  }
  return { ...base, items: out };
}

function indexOfOrig(items: readonly Item[], orig: number): number {
  const k = items.findIndex((it) => it.orig === orig);
  if (k < 0) throw new Conflict(`original line ${orig} is gone`);
  return k;
}

/** A change between read and edit, in terms of original lines. */
export type Mutation = (x: Items) => Items;

export const mutations = {
  /** New lines before original line `orig` (or at the end with `orig` = null). */
  insertBefore(orig: number | null, rows: readonly Buffer[], group = 'drift'): Mutation {
    return (x) => {
      const at = orig === null ? x.items.length : indexOfOrig(x.items, orig);
      const add = rows.map((text) => ({ orig: null, text, group }));
      return { ...x, items: [...x.items.slice(0, at), ...add, ...x.items.slice(at)] };
    };
  },
  /** Original lines orig..orig+count-1 (still adjacent, untouched) become `rows`. */
  replaceOrig(orig: number, count: number, rows: readonly Buffer[], group = 'drift'): Mutation {
    return (x) => {
      const at = indexOfOrig(x.items, orig);
      for (let k = 0; k < count; k++) if (x.items[at + k]?.orig !== orig + k) throw new Conflict(`original lines ${orig}..${orig + count - 1} were edited`);
      const add = rows.map((text) => ({ orig: null, text, group }));
      return { ...x, items: [...x.items.slice(0, at), ...add, ...x.items.slice(at + count)] };
    };
  },
  /** The region from original line a to original line b (inclusive, with whatever the edit put between) moves before original line `before` (null: the end). */
  moveRegion(a: number, b: number, before: number | null): Mutation {
    return (x) => {
      const i = indexOfOrig(x.items, a);
      const j = indexOfOrig(x.items, b);
      const region = x.items.slice(i, j + 1);
      const rest = [...x.items.slice(0, i), ...x.items.slice(j + 1)];
      const at = before === null ? rest.length : indexOfOrig(rest, before);
      return { ...x, items: [...rest.slice(0, at), ...region, ...rest.slice(at)] };
    };
  },
  /** Rewrites every original line; rows of our edit get the rewritten form as an alternative. */
  mapLines(fn: (text: Buffer, orig: number | null) => Buffer, rowsToo: boolean): Mutation {
    return (x) => ({
      ...x,
      items: x.items.map((it) => {
        if (it.orig !== null) return { ...it, text: fn(it.text, it.orig) };
        if (rowsToo && it.group?.startsWith('ours:')) {
          const alt = fn(it.text, null);
          return alt.equals(it.text) ? it : { ...it, alt };
        }
        return it;
      }),
    });
  },
  setEol(eol: Eol): Mutation {
    return (x) => ({ ...x, eol });
  },
  chain(...ms: Mutation[]): Mutation {
    return (x) => ms.reduce((acc, m) => m(acc), x);
  },
};

/** An intended result: fixed lines, and per hunk of our edit the rows as sent or as the formatter would write them. */
export interface Expect {
  readonly bom: boolean;
  readonly eol: Eol;
  readonly finalNewline: boolean;
  readonly segments: ReadonlyArray<{ readonly plain: readonly Buffer[]; readonly alt?: readonly Buffer[] }>;
}

export function expectOf(x: Items): Expect {
  const altGroups = new Set(x.items.filter((i) => i.alt !== undefined && i.group !== null).map((i) => i.group));
  const segments: Array<{ key: string | null; plain: Buffer[]; alt?: Buffer[] }> = [];
  for (const it of x.items) {
    const last = segments[segments.length - 1];
    const key = it.group !== null && altGroups.has(it.group) ? it.group : null;
    if (last && last.key === key) {
      last.plain.push(it.text);
      last.alt?.push(it.alt ?? it.text);
    } else if (key !== null) segments.push({ key, plain: [it.text], alt: [it.alt ?? it.text] });
    else segments.push({ key, plain: [it.text] });
  }
  return { bom: x.bom, eol: x.eol, finalNewline: x.finalNewline, segments };
}

/** True when the bytes on disk are this intended result (each hunk's rows all as sent or all re-written). */
export function matches(expect: Expect, bytes: Buffer): boolean {
  if (expect.segments.every((s) => s.alt === undefined)) return encodeExpectPlain(expect).equals(bytes);
  const disk = splitDisk(bytes);
  if (disk.bom !== expect.bom) return false;
  const total = expect.segments.reduce((s, g) => s + g.plain.length, 0);
  if (disk.lines.length !== total) return false;
  const eol = Buffer.from(expect.eol);
  let k = 0;
  const lineOk = (want: Buffer, idx: number): boolean => {
    const got = disk.lines[idx]!;
    const last = idx === total - 1;
    const term = last && !expect.finalNewline ? Buffer.alloc(0) : eol;
    return got.length === want.length + term.length && got.subarray(0, want.length).equals(want) && got.subarray(want.length).equals(term);
  };
  for (const seg of expect.segments) {
    const plainOk = seg.plain.every((l, j) => lineOk(l, k + j));
    if (!plainOk && !(seg.alt && seg.alt.every((l, j) => lineOk(l, k + j)))) return false;
    k += seg.plain.length;
  }
  return true;
}

/** The bytes of an intended result with every hunk's rows as sent. */
export function encodeExpectPlain(e: Expect): Buffer {
  return encodeDoc({ bom: e.bom, eol: e.eol, finalNewline: e.finalNewline, lines: e.segments.flatMap((s) => s.plain) });
}

/** The intended result of `mutation` after `edits`, or null when the mutation needs a line the edits replaced. */
export function intended(base: Items, edits: ReadonlyArray<{ edit: AbstractEdit; label: string }>, mutation?: Mutation): Expect | null {
  try {
    const edited = applyEdits(base, edits);
    return expectOf(mutation ? mutation(edited) : edited);
  } catch (e) {
    if (e instanceof Conflict) return null;
    throw e;
  }
}
