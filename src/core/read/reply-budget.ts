// How much text one read call (or the diffs of one edit call) may still return. An MCP reply
// carries each result's content twice (the text block and structuredContent), JSON-escaped, so a
// line costs twice its escaped UTF-8 size; the budget is MAX_READ_CONTENT_BYTES of that, which
// keeps every reply well under the 8 MiB message limit whatever the text holds (control
// characters escape to six bytes).

import { Buffer } from 'node:buffer';
import { MAX_READ_CONTENT_BYTES } from '../config/config.js';

/** From this length on (a whole read's body), escapes are counted by searches rather than a loop. */
const SEARCH_MIN_LENGTH = 4096;
/** What the searches do not count: the other control characters and any surrogate. */
const RARE_ESCAPES = /[\u0000-\u0008\u000b-\u001f\ud800-\udfff]/;

function occurrences(s: string, c: string): number {
  let k = 0;
  for (let i = s.indexOf(c); i >= 0; i = s.indexOf(c, i + 1)) k++;
  return k;
}

/**
 * The bytes `s` takes inside a JSON string, UTF-8 encoded: exactly what the transport's
 * JSON.stringify will write for it. Counted without building the escaped copy (for a whole read's
 * body that copy is a large string of its own, allocated and collected on every call): its UTF-8
 * size plus what each escape adds (`\"`, `\\`, `\n` and the other short escapes: 1; `\u00XX`: 5;
 * a lone surrogate, written `\uDXXX` instead of three replacement bytes: 3).
 */
export function jsonEscapedBytes(s: string): number {
  if (s.length >= SEARCH_MIN_LENGTH && !RARE_ESCAPES.test(s)) {
    // only the common escapes: native searches count them faster than a loop over every unit
    return Buffer.byteLength(s) + occurrences(s, '"') + occurrences(s, '\\') + occurrences(s, '\t') + occurrences(s, '\n');
  }
  let extra = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) continue;
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) extra += 1;
    else if (c < 0x20) extra += 5;
    else if (c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else extra += 3;
  }
  return Buffer.byteLength(s) + extra;
}

export class ReplyBudget {
  readonly limit: number;
  private left: number;

  constructor(limit: number = MAX_READ_CONTENT_BYTES) {
    this.limit = limit;
    this.left = limit;
  }

  /** What one more line of content (plus its newline) costs. */
  static cost(line: string): number {
    return 2 * (jsonEscapedBytes(line) + 2);
  }

  get remaining(): number {
    return this.left;
  }

  get exhausted(): boolean {
    return this.left <= 0;
  }

  /** Takes room for `line` when it fits; false (nothing taken) when it does not. */
  take(line: string): boolean {
    const c = ReplyBudget.cost(line);
    if (c > this.left) return false;
    this.left -= c;
    return true;
  }

  /** Takes `bytes` of room when they fit (a bulk pre-check); false (nothing taken) otherwise. */
  takeBytes(bytes: number): boolean {
    if (bytes > this.left) return false;
    this.left -= bytes;
    return true;
  }

  /** Uses up what is left: once one read stopped at the limit, later targets are not read. */
  close(): void {
    this.left = 0;
  }

  /** Takes what is left (a cut line, a notice) unconditionally. */
  spend(line: string): void {
    this.left -= ReplyBudget.cost(line);
  }
}
