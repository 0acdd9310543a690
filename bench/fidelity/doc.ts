// The benchmark's own model of a file, independent of the engine under test: lines as bytes
// (so a cp1252 byte survives), one line ending for the file, a BOM flag and whether the last line
// ends. The oracle builds intended results with it; the classifier parses what is on disk with it.

export type Eol = '\n' | '\r\n';

export interface Doc {
  readonly bom: boolean;
  readonly eol: Eol;
  readonly finalNewline: boolean;
  /** Lines without their terminators. */
  readonly lines: readonly Buffer[];
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const decoder = new TextDecoder('utf-8', { fatal: false });

/** A document of LF text lines (the corpus form). */
export function docOfLines(lines: readonly string[], finalNewline = true): Doc {
  return { bom: false, eol: '\n', finalNewline, lines: lines.map((l) => Buffer.from(l, 'utf8')) };
}

export function encodeDoc(doc: Doc): Buffer {
  const parts: Buffer[] = [];
  if (doc.bom) parts.push(BOM);
  const eol = Buffer.from(doc.eol);
  doc.lines.forEach((l, i) => {
    parts.push(l);
    if (i < doc.lines.length - 1 || doc.finalNewline) parts.push(eol);
  });
  return Buffer.concat(parts);
}

/** A line as a reader shows it: UTF-8, with U+FFFD for bytes that are not. */
export function showLine(line: Buffer): string {
  return decoder.decode(line);
}

export function viewOf(doc: Doc): string[] {
  return doc.lines.map(showLine);
}

/** What is on disk, split into lines that keep their own terminators (for byte-exact comparison). */
export interface DiskLines {
  readonly bom: boolean;
  /** Each line with its terminator bytes (the last may have none). */
  readonly lines: readonly Buffer[];
}

export function splitDisk(bytes: Buffer): DiskLines {
  let start = 0;
  let bom = false;
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    bom = true;
    start = 3;
  }
  const lines: Buffer[] = [];
  let s = start;
  for (let i = start; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(s, i + 1));
      s = i + 1;
    }
  }
  if (s < bytes.length) lines.push(bytes.subarray(s));
  return { bom, lines };
}

/** Leading whitespace of a line. */
export function indentOf(text: string): string {
  return /^[ \t]*/.exec(text)![0];
}
