// How much text one read call may still return. An MCP reply carries each result's content twice
// (the text block and structuredContent), JSON-escaped, so a line costs twice its escaped UTF-8
// size; the budget is MAX_READ_CONTENT_BYTES of that, which keeps every reply well under the
// 8 MiB message limit whatever the text holds (control characters escape to six bytes).

import { MAX_READ_CONTENT_BYTES } from './config.js';

/** The bytes `s` takes inside a JSON string, UTF-8 encoded. */
export function jsonEscapedBytes(s: string): number {
  let n = 0;
  // Fast path for ASCII: one byte each, plus one for each two-character escape, plus five for each \uXXXX.
  if (/^[\x00-\x7f]*$/.test(s)) {
    const short = s.match(/["\\\x08\x09\x0a\x0c\x0d]/g)?.length ?? 0;
    const long = s.match(/[\x00-\x07\x0b\x0e-\x1f]/g)?.length ?? 0;
    return s.length + short + 5 * long;
  }
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) n += c === 0x09 || c === 0x0a || c === 0x0d || c === 0x08 || c === 0x0c ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) n += 2;
    else if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
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
