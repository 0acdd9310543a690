// Source ranges in a TOML text (smol-toml keeps no positions): a small scanner of the document's
// structure (tables, arrays of tables, dotted keys, inline tables and arrays, the four string
// forms) that gives the UTF-16 offsets [start, end) of the value at RFC 6901 pointer tokens. It is
// run on a text the parser has accepted; anything it does not follow gives no range, never a wrong one.

import { arrayIndex } from './json-pointer.js';

interface Node {
  start: number;
  end: number;
  kind: 'scalar' | 'array' | 'table';
  items?: Node[];
  entries?: Map<string, Node>;
}

class Unfollowed extends Error {}

const table = (start: number, end: number): Node => ({ start, end, kind: 'table', entries: new Map() });

function extend(node: Node, start: number, end: number): void {
  node.start = Math.min(node.start, start);
  node.end = Math.max(node.end, end);
}

class Scanner {
  i = 0;
  constructor(private readonly s: string) {}

  get done(): boolean {
    return this.i >= this.s.length;
  }

  private at(k = 0): string {
    return this.s[this.i + k] ?? '';
  }

  skipBlank(newlines: boolean): void {
    for (;;) {
      const c = this.at();
      if (c === ' ' || c === '\t' || (newlines && (c === '\n' || c === '\r'))) this.i++;
      else if (c === '#' && newlines) while (!this.done && this.at() !== '\n') this.i++;
      else return;
    }
  }

  expect(text: string): void {
    if (!this.s.startsWith(text, this.i)) throw new Unfollowed(text);
    this.i += text.length;
  }

  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const c = this.at();
      if (c === '"' || c === "'") {
        const start = this.i;
        this.string();
        parts.push(JSON.parse(c === '"' ? this.s.slice(start, this.i) : JSON.stringify(this.s.slice(start + 1, this.i - 1))) as string);
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i, this.i + 256));
        if (!m) throw new Unfollowed('key');
        parts.push(m[0]);
        this.i += m[0].length;
      }
      this.skipBlank(false);
      if (this.at() !== '.') return parts;
      this.i++;
    }
  }

  /** Skips one string of any of the four forms, the cursor on its first quote. */
  string(): void {
    const q = this.at();
    const multi = this.at(1) === q && this.at(2) === q;
    this.i += multi ? 3 : 1;
    for (;;) {
      if (this.done) throw new Unfollowed('string');
      const c = this.at();
      if (c === '\\' && q === '"') this.i += 2;
      else if (c === q && (!multi || (this.at(1) === q && this.at(2) === q))) {
        this.i += multi ? 3 : 1;
        // a multi-line string may end with up to two more quotes of its own
        if (multi) while (this.at() === q) this.i++;
        return;
      } else if (c === '\n' && !multi) throw new Unfollowed('string');
      else this.i++;
    }
  }

  value(): Node {
    const start = this.i;
    const c = this.at();
    if (c === '"' || c === "'") {
      this.string();
      return { start, end: this.i, kind: 'scalar' };
    }
    if (c === '[') {
      this.i++;
      const items: Node[] = [];
      for (;;) {
        this.skipBlank(true);
        if (this.at() === ']') break;
        items.push(this.value());
        this.skipBlank(true);
        if (this.at() === ',') this.i++;
        else if (this.at() !== ']') throw new Unfollowed('array');
      }
      this.i++;
      return { start, end: this.i, kind: 'array', items };
    }
    if (c === '{') {
      this.i++;
      const node = table(start, start);
      this.skipBlank(false);
      while (this.at() !== '}') {
        const key = this.key();
        this.expect('=');
        this.skipBlank(false);
        put(node, key, this.value());
        this.skipBlank(false);
        if (this.at() === ',') this.i++;
        else if (this.at() !== '}') throw new Unfollowed('inline table');
        this.skipBlank(false);
      }
      this.i++;
      node.start = start;
      node.end = this.i;
      return node;
    }
    const m = /^[^,\]}\n#]*/.exec(this.s.slice(this.i, this.i + 128))![0].replace(/[ \t\r]+$/, '');
    if (m === '') throw new Unfollowed('value');
    this.i += m.length;
    return { start, end: this.i, kind: 'scalar' };
  }
}

/**
 * The nodes from `root` down to the table at `path` (an array of tables and its last element both
 * listed), the missing ones made as implicit tables (no range until something lands in them).
 */
function chainTo(root: Node, path: readonly string[]): Node[] {
  const chain: Node[] = [];
  let node = root;
  for (const part of path) {
    let next = node.entries!.get(part);
    if (next === undefined) {
      next = table(Number.MAX_SAFE_INTEGER, 0);
      node.entries!.set(part, next);
    }
    if (next.kind === 'array') {
      chain.push(next);
      next = next.items!.at(-1);
    }
    if (next === undefined || next.kind !== 'table') throw new Unfollowed('table');
    chain.push(next);
    node = next;
  }
  return chain;
}

/** Puts `value` at the dotted `key` under `node`; the tables on the way span it. */
function put(node: Node, key: readonly string[], value: Node): void {
  const chain = chainTo(node, key.slice(0, -1));
  const holder = chain.at(-1) ?? node;
  if (holder.entries!.has(key.at(-1)!)) throw new Unfollowed('duplicate key');
  holder.entries!.set(key.at(-1)!, value);
  for (const n of chain) extend(n, value.start, value.end);
}

function structure(text: string): Node {
  const root = table(0, text.length);
  const s = new Scanner(text);
  // the nodes down to the current table, each spanning what lands in it
  let chain: Node[] = [];
  let current = root;
  for (;;) {
    s.skipBlank(true);
    if (s.done) return root;
    const start = s.i;
    if (text.startsWith('[[', start)) {
      s.i += 2;
      const key = s.key();
      s.expect(']]');
      const parents = chainTo(root, key.slice(0, -1));
      const parent = parents.at(-1) ?? root;
      let list = parent.entries!.get(key.at(-1)!);
      if (list === undefined) {
        list = { start, end: s.i, kind: 'array', items: [] };
        parent.entries!.set(key.at(-1)!, list);
      }
      if (list.kind !== 'array') throw new Unfollowed('array of tables');
      current = table(start, s.i);
      list.items!.push(current);
      chain = [...parents, list, current];
    } else if (text[start] === '[') {
      s.i++;
      const key = s.key();
      s.expect(']');
      chain = chainTo(root, key);
      current = chain.at(-1)!;
    } else {
      const key = s.key();
      s.expect('=');
      s.skipBlank(false);
      const value = s.value();
      put(current, key, value);
      for (const n of chain) extend(n, value.start, value.end);
      continue;
    }
    for (const n of chain) extend(n, start, s.i);
  }
}

/** The offsets [start, end) of the value at `tokens` in a TOML text, or undefined. */
export function tomlRangeOf(text: string, tokens: readonly string[]): { start: number; end: number } | undefined {
  let node: Node | undefined;
  try {
    node = structure(text);
  } catch (e) {
    if (e instanceof Unfollowed) return undefined;
    throw e;
  }
  for (const token of tokens) {
    if (node.kind === 'table') node = node.entries!.get(token);
    else if (node.kind === 'array') {
      const i = arrayIndex(token);
      node = i === null ? undefined : node.items![i];
    } else node = undefined;
    if (node === undefined) return undefined;
  }
  return node.start <= node.end ? { start: node.start, end: node.end } : undefined;
}
