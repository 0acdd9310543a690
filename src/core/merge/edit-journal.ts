// The edits each session made, as this server applied them: per session and file, the exact line
// map of each edit (edit-shape.ts) between the text it was applied to and the text it wrote, both
// known by their SHA-256 (of the UTF-16 text, so that escaped bytes count). A stale edit of the
// same session asks for the chain of its own edits that leads from the text it read to the live
// text; when another writer changed the file anywhere along the way, there is no chain. In memory,
// per engine, bounded: the least recently used sessions and files, and the oldest edits, go first.

import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { EditShape } from './edit-shape.js';

/** Sessions kept, files per session, edits per file. */
export const JOURNAL_SESSIONS = 64;
export const JOURNAL_FILES = 64;
export const JOURNAL_EDITS = 16;

interface Entry {
  readonly before: string;
  readonly after: string;
  readonly shape: EditShape;
}

/** UTF-16 units hashed per update: a text's UTF-16 copy is made in slices this long, never whole. */
const DIGEST_SLICE = 16 * 1024;

/** A code unit above U+00FF. */
const WIDE = /[^\u0000-\u00ff]/;
/** Leading bytes of the two non-ASCII forms: each holds a byte no ASCII text has, so no form meets another. */
const NARROW_KIND = Uint8Array.of(0xff, 0x4c);
const WIDE_KIND = Uint8Array.of(0xff, 0x55);

/**
 * SHA-256 (hex) of the text's code units, one digest per text. An ASCII text is hashed as its
 * bytes (its UTF-8: `utf8Sha256`, when the caller has that hash, is taken as it is); a text whose
 * units all fit in a byte as those bytes (latin1: exact, half of UTF-16); another as its UTF-16
 * code units, fed in slices (the same digest as one update of the whole text, without a copy
 * twice as long as the text). The two non-ASCII forms start with a kind that no ASCII text's
 * bytes hold, so two texts of different forms never share a digest.
 */
export function textDigest(text: string, utf8Sha256?: string): string {
  // (an ASCII text is as long in UTF-8 as in UTF-16; any other unit takes more bytes than units)
  if (Buffer.byteLength(text, 'utf8') === text.length) return utf8Sha256 ?? createHash('sha256').update(text, 'latin1').digest('hex');
  const hash = createHash('sha256');
  if (!WIDE.test(text)) return hash.update(NARROW_KIND).update(text, 'latin1').digest('hex');
  hash.update(WIDE_KIND);
  for (let at = 0; at < text.length; at += DIGEST_SLICE) hash.update(text.slice(at, at + DIGEST_SLICE), 'utf16le');
  return hash.digest('hex');
}

/** A map kept in least-recently-used order, at most `cap` keys. */
function touch<K, V>(map: Map<K, V>, key: K, make: () => V, cap: number): V {
  const found = map.get(key);
  if (found !== undefined) map.delete(key);
  const value = found ?? make();
  map.set(key, value);
  while (map.size > cap) map.delete(map.keys().next().value as K);
  return value;
}

export class EditJournal {
  private readonly sessions = new Map<string, Map<string, Entry[]>>();
  /**
   * The last two texts digested and their digests: the text an edit wrote is the one the next edit
   * starts from, and an edit's new text may be digested (`prepare`) before its old one is recorded.
   */
  private recent: Array<{ text: string; digest: string }> = [];

  private digest(text: string, utf8Sha256?: string): string {
    // the text asked for last goes first: an edit records its old text and then its new one, so the
    // new one stays for the next edit, whose old text it is (however the next edit's new one comes in)
    const found = this.recent.find((r) => r.text === text);
    const digest = found?.digest ?? textDigest(text, utf8Sha256);
    this.recent = [found ?? { text, digest }, ...this.recent.filter((r) => r !== found).slice(0, 1)];
    return digest;
  }

  /**
   * Digests `text` ahead of a `record` that names it (e.g. while the edit's write waits for the
   * disk); `utf8Sha256`: the SHA-256 (hex) of the text's UTF-8, when the caller has it.
   */
  prepare(text: string, utf8Sha256?: string): void {
    this.digest(text, utf8Sha256);
  }

  /** Records that `session` edited `path` from text `before` to text `after`, with this shape. */
  record(session: string, path: string, before: string, after: string, shape: EditShape): void {
    const files = touch(this.sessions, session, () => new Map<string, Entry[]>(), JOURNAL_SESSIONS);
    const entries = touch(files, path, () => [], JOURNAL_FILES);
    entries.push({ before: this.digest(before), after: this.digest(after), shape });
    if (entries.length > JOURNAL_EDITS) entries.splice(0, entries.length - JOURNAL_EDITS);
  }

  /**
   * The shapes of the session's own edits that turned text `from` into text `to`, oldest first: the
   * newest edit that wrote `to`, the newest earlier one that wrote the text it was applied to, and
   * so on back to `from`. Null when the chain breaks (a text no edit of this session wrote).
   */
  chain(session: string, path: string, from: string, to: string): EditShape[] | null {
    const entries = this.sessions.get(session)?.get(path);
    if (!entries || entries.length === 0) return null;
    const start = this.digest(from);
    let at = this.digest(to);
    if (at === start) return null;
    const out: EditShape[] = [];
    for (let k = entries.length - 1; k >= 0; k--) {
      const e = entries[k]!;
      if (e.after !== at) continue;
      out.unshift(e.shape);
      at = e.before;
      if (at === start) return out;
    }
    return null;
  }
}
