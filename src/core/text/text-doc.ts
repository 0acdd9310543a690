// A text file as lines plus the exact shape it came in (BOM, per-line terminators, encoding),
// so that an edit can change some lines and write every other byte back unchanged.

import { computeTag, formatTag } from './tag.js';
import { decodeBytes, encodeText, hasEscapedBytes, hasLoneSurrogate } from './text-codec.js';
import { xxhash32 } from './xxhash32.js';

export type LineEnding = '\n' | '\r\n' | '\r';

export interface TextDoc {
  /** The file began with a UTF-8 byte order mark (not part of `lines`). */
  readonly bom: boolean;
  /** Line contents without terminators; non-UTF-8 bytes are escaped (see text-codec). */
  readonly lines: readonly string[];
  /** The terminator of each line: '\n', '\r\n', '\r', or '' for a last line without one. */
  readonly endings: readonly string[];
  /** The ending new lines get: the first ending found in the file, LF when there is none. */
  readonly eol: LineEnding;
  /** False when some bytes were not valid UTF-8. */
  readonly utf8: boolean;
}

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Splits a decoded string into lines and their terminators. */
export function splitLines(text: string): { lines: string[]; endings: string[] } {
  if (!text.includes('\r')) {
    // LF only (the common case): the native split
    if (text === '') return { lines: [], endings: [] };
    const lines = text.split('\n');
    const terminated = lines[lines.length - 1] === '';
    if (terminated) lines.pop();
    const endings = new Array<string>(lines.length).fill('\n');
    if (!terminated) endings[endings.length - 1] = '';
    return { lines, endings };
  }
  const lines: string[] = [];
  const endings: string[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push(text.slice(start, m.index));
    endings.push(m[0]);
    start = m.index + m[0].length;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
    endings.push('');
  }
  return { lines, endings };
}

export function parseDoc(bytes: Uint8Array): TextDoc {
  return parseDocAndText(bytes).doc;
}

/** The document and its LF text (docText), the latter without a second pass when the bytes hold no CR. */
export function parseDocAndText(bytes: Uint8Array): { doc: TextDoc; text: string } {
  const bom = hasBom(bytes);
  const { text, utf8 } = decodeBytes(bom ? bytes.subarray(3) : bytes);
  const { lines, endings } = splitLines(text);
  const first = endings.find((e) => e !== '');
  const doc: TextDoc = { bom, lines, endings, eol: (first ?? '\n') as LineEnding, utf8 };
  // split on LF alone and joined again, text without CR is its own docText
  return { doc, text: text.includes('\r') ? docText(doc) : text };
}

/**
 * The tag of a document whose exact bytes are `bytes`. When the tag's normalization would change
 * nothing (valid UTF-8, LF endings only, no line ending in a blank or tab) the bytes after the BOM
 * are the normalized text's bytes and are hashed as they are; otherwise the text is normalized.
 */
export function docTag(doc: TextDoc, bytes: Uint8Array): string {
  const n = doc.lines.length;
  let plain = doc.utf8;
  for (let i = 0; i < n && plain; i++) {
    const line = doc.lines[i]!;
    const last = line.charCodeAt(line.length - 1);
    plain = (doc.endings[i] === '\n' || (i === n - 1 && doc.endings[i] === '')) && last !== 0x20 && last !== 0x09;
  }
  if (plain) return formatTag(xxhash32(doc.bom ? bytes.subarray(3) : bytes));
  return computeTag(docText(doc));
}

/** A decoded text without its lines split: what a rewrite of the whole text needs. */
export interface TextShape {
  readonly bom: boolean;
  readonly eol: LineEnding;
  readonly utf8: boolean;
  /** The decoded text in its own line endings, BOM stripped. */
  readonly raw: string;
  /** Its LF text (docText of the same document). */
  readonly text: string;
}

/** The LF text of a decoded text: every terminator (`\r\n`, `\n`, lone `\r`) made `\n`, as docText does. */
export function lfText(raw: string): string {
  return raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
}

/** The shape of `bytes` as parseDoc finds it, without splitting lines. */
export function textShape(bytes: Uint8Array): TextShape {
  const bom = hasBom(bytes);
  const { text: raw, utf8 } = decodeBytes(bom ? bytes.subarray(3) : bytes);
  const at = raw.search(/[\r\n]/);
  const eol: LineEnding = at === -1 || raw[at] === '\n' ? '\n' : raw[at + 1] === '\n' ? '\r\n' : '\r';
  return { bom, eol, utf8, raw, text: lfText(raw) };
}

/** A new document from LF text sent by a client, in the given shape. */
export function docFromText(text: string, shape: { bom: boolean; eol: LineEnding }): TextDoc {
  const { lines, endings } = splitLines(text);
  return {
    bom: shape.bom,
    lines,
    endings: endings.map((e) => (e === '' ? '' : shape.eol)),
    eol: shape.eol,
    utf8: true,
  };
}

/** The LF-normalized text of the document, BOM stripped: what tags and edits are computed on. */
export function docText(doc: TextDoc): string {
  const n = doc.lines.length;
  if (n === 0) return '';
  const body = doc.lines.join('\n');
  return doc.endings[n - 1] === '' ? body : body + '\n';
}

/** The exact bytes of the document. */
export function serializeDoc(doc: TextDoc): Uint8Array {
  const n = doc.lines.length;
  let lfOnly = true;
  for (let i = 0; i < n - 1 && lfOnly; i++) lfOnly = doc.endings[i] === '\n';
  let s = '';
  if (lfOnly) s = n === 0 ? '' : doc.lines.join('\n') + doc.endings[n - 1]!;
  else for (let i = 0; i < n; i++) s += doc.lines[i]! + doc.endings[i]!;
  return encodeRaw(s, doc.bom);
}

/**
 * The exact bytes of the document and its LF text (docText), joined once: with LF endings only,
 * the bytes after the BOM are the text's own encoding (`textBytes`, what encodeText(text) gives).
 */
export function serializeWithText(doc: TextDoc): { bytes: Uint8Array; text: string; textBytes?: Uint8Array } {
  const n = doc.lines.length;
  let lfOnly = true;
  for (let i = 0; i < n - 1 && lfOnly; i++) lfOnly = doc.endings[i] === '\n';
  if (!lfOnly || (n > 0 && doc.endings[n - 1] !== '\n' && doc.endings[n - 1] !== '')) return { bytes: serializeDoc(doc), text: docText(doc) };
  const text = n === 0 ? '' : joinFlat(doc.lines, doc.endings[n - 1] === '\n');
  const bytes = encodeRaw(text, doc.bom);
  return { bytes, text, textBytes: doc.bom ? bytes.subarray(3) : bytes };
}

/**
 * `lines` joined by LF, with a final LF when `terminated`, as one flat string. (`join(...) + '\n'`
 * makes a rope of two parts that each later scan copies into a second string as long as the text:
 * over 128 KiB, each such string is a fresh mapping of memory for the JS heap, page faults and all.)
 */
function joinFlat(lines: readonly string[], terminated: boolean): string {
  if (!terminated) return lines.join('\n');
  const all = lines.slice();
  all.push('');
  return all.join('\n');
}

/** The exact bytes of a decoded text in its own line endings (`raw`), with a BOM before it when `bom`. */
export function encodeRaw(raw: string, bom: boolean): Uint8Array {
  const body = encodeText(raw);
  if (!bom) return body;
  const out = new Uint8Array(body.length + 3);
  out.set(BOM, 0);
  out.set(body, 3);
  return out;
}

/** Normalizes arbitrary client text to LF (CRLF and lone CR become LF) and drops a leading BOM. */
export function normalizeToLf(text: string): string {
  return lfText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

/**
 * True when the exact bytes of `doc` (serializeWithText) parse back to this very document and to
 * `text` (its LF text): valid UTF-8 with LF endings only, no CR, no byte escape or lone surrogate,
 * no LF inside a line, no BOM character that the bytes would turn into a BOM. A caller that wrote
 * such a document may then take it for the parse of the same bytes read back.
 */
export function reparsesAs(doc: TextDoc, text: string): boolean {
  const n = doc.lines.length;
  if (!doc.utf8 || doc.eol !== '\n') return false;
  if (!doc.bom && text.charCodeAt(0) === 0xfeff) return false;
  // one plain loop over the lines: their endings, and their length in all
  let length = 0;
  for (let i = 0; i < n - 1; i++) {
    if (doc.endings[i] !== '\n') return false;
    length += doc.lines[i]!.length;
  }
  if (n > 0 && doc.endings[n - 1] !== '\n' && (doc.endings[n - 1] !== '' || doc.lines[n - 1] === '')) return false;
  if (n > 0) length += doc.lines[n - 1]!.length;
  if (text.includes('\r') || hasEscapedBytes(text) || hasLoneSurrogate(text)) return false;
  // as many LF as line endings: no line holds one of its own
  let lf = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lf++;
  const ended = n > 0 && doc.endings[n - 1] === '' ? n - 1 : n;
  return lf === ended && text.length === length + ended;
}
