// Brute-forced tag collisions, computed here from the published tag rule (xxHash32, seed 0, low 16
// bits, over the text with a BOM stripped, CRLF as LF and trailing blanks of each line trimmed),
// not with the engine's code. A collision varies 4 ASCII bytes inside a comment on one line until
// the whole text has the same tag as the text that was read; only the accumulator lane holding those
// bytes is recomputed per try, so a search costs (bytes after the lane / 16) rounds per try.

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

const rotl = (x: number, r: number): number => ((x << r) | (x >>> (32 - r))) >>> 0;
const round = (acc: number, lane: number): number => Math.imul(rotl((acc + Math.imul(lane, P2)) >>> 0, 13), P1) >>> 0;
const u32 = (b: Uint8Array, i: number): number => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

function finish(acc: number, b: Uint8Array, from: number): number {
  let h = acc;
  let i = from;
  for (; i + 4 <= b.length; i += 4) h = Math.imul(rotl((h + Math.imul(u32(b, i), P3)) >>> 0, 17), P4) >>> 0;
  for (; i < b.length; i++) h = Math.imul(rotl((h + Math.imul(b[i]!, P5)) >>> 0, 11), P1) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, P2) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, P3) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export function xxh32(b: Uint8Array): number {
  const len = b.length;
  let i = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (P1 + P2) >>> 0;
    let v2 = P2;
    let v3 = 0;
    let v4 = (0 - P1) >>> 0;
    for (; i + 16 <= len; i += 16) {
      v1 = round(v1, u32(b, i));
      v2 = round(v2, u32(b, i + 4));
      v3 = round(v3, u32(b, i + 8));
      v4 = round(v4, u32(b, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else h = P5;
  h = (h + len) >>> 0;
  return finish(h, b, i);
}

/** The text the tag is computed over. */
export function tagText(text: string): string {
  let t = text.startsWith('\ufeff') ? text.slice(1) : text;
  t = t.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  return t
    .split('\n')
    .map((l) => l.replace(/[ \t]+$/, ''))
    .join('\n');
}

export function tagOf(text: string): string {
  return (xxh32(Buffer.from(tagText(text), 'utf8')) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

/** Characters a varied lane may hold: printable ASCII without blanks or comment delimiters. */
const ALLOWED = new Uint8Array(256);
for (let c = 0x21; c < 0x7f; c++) if (c !== 0x2a && c !== 0x2f && c !== 0x5c && c !== 0x23) ALLOWED[c] = 1;

/** The inverse of an odd number modulo 2^32. */
function inverse(p: number): number {
  let x = p;
  for (let i = 0; i < 5; i++) x = Math.imul(x, (2 - Math.imul(p, x)) >>> 0) >>> 0;
  return x >>> 0;
}

const rotr = (x: number, r: number): number => ((x >>> r) | (x << (32 - r))) >>> 0;
const I1 = inverse(P1);
const I2 = inverse(P2);
const I3 = inverse(P3);
const I4 = inverse(P4);

/** Undoes xxHash32's final avalanche. */
function unavalanche(h: number): number {
  let x = (h ^ (h >>> 16)) >>> 0;
  x = Math.imul(x, I3) >>> 0;
  x = (x ^ (x >>> 13) ^ (x >>> 26)) >>> 0;
  x = Math.imul(x, I2) >>> 0;
  return (x ^ (x >>> 15) ^ (x >>> 30)) >>> 0;
}

/**
 * Finds 4 printable characters for `bytes[offset..offset+4)` (offset a multiple of 4, inside the
 * 16-byte stripes) that give `bytes` a hash whose low 16 bits are `target`; null when none does.
 * Works backwards from each of the 65,536 hashes with those low bits to the lane that yields it.
 */
export function solveLane(bytes: Uint8Array, offset: number, target: number): string | null {
  const len = bytes.length;
  const stripes = Math.floor(len / 16);
  if (len < 16 || offset % 4 !== 0 || offset + 4 > stripes * 16) return null;
  const k = Math.floor(offset / 16);
  const lane = (offset % 16) / 4;
  const v = [(P1 + P2) >>> 0, P2, 0, (0 - P1) >>> 0];
  for (let s = 0; s < k; s++) for (let j = 0; j < 4; j++) v[j] = round(v[j]!, u32(bytes, s * 16 + j * 4));
  const before = v[lane]!;
  for (let s = k; s < stripes; s++) for (let j = 0; j < 4; j++) if (j !== lane) v[j] = round(v[j]!, u32(bytes, s * 16 + j * 4));
  const rest: number[] = [];
  for (let s = k + 1; s < stripes; s++) rest.push(u32(bytes, s * 16 + lane * 4));
  const rot = [1, 7, 12, 18];
  let fixed = 0;
  for (let j = 0; j < 4; j++) if (j !== lane) fixed = (fixed + rotl(v[j]!, rot[j]!)) >>> 0;
  // the tail after the stripes, undone from the end
  const tailFrom = stripes * 16;
  const lanes: number[] = [];
  let i = tailFrom;
  for (; i + 4 <= len; i += 4) lanes.push(u32(bytes, i));
  const singles = Array.from(bytes.subarray(i));
  for (let high = 0; high < 0x10000; high++) {
    let h = unavalanche(((high << 16) | target) >>> 0);
    for (let t = singles.length - 1; t >= 0; t--) h = (rotr(Math.imul(h, I1) >>> 0, 11) - Math.imul(singles[t]!, P5)) >>> 0;
    for (let t = lanes.length - 1; t >= 0; t--) h = (rotr(Math.imul(h, I4) >>> 0, 17) - Math.imul(lanes[t]!, P3)) >>> 0;
    let acc = rotr((h - len - fixed) >>> 0, rot[lane]!);
    for (let t = rest.length - 1; t >= 0; t--) acc = (rotr(Math.imul(acc, I1) >>> 0, 13) - Math.imul(rest[t]!, P2)) >>> 0;
    const x = Math.imul((rotr(Math.imul(acc, I1) >>> 0, 13) - before) >>> 0, I2) >>> 0;
    const b0 = x & 0xff;
    const b1 = (x >>> 8) & 0xff;
    const b2 = (x >>> 16) & 0xff;
    const b3 = x >>> 24;
    if (ALLOWED[b0] && ALLOWED[b1] && ALLOWED[b2] && ALLOWED[b3]) return String.fromCharCode(b0, b1, b2, b3);
  }
  return null;
}

/**
 * A version of line `index` of `lines` (LF text, final newline when `finalNewline`) with a comment
 * whose 4 varying characters make the whole text collide with `target`: the other text, same tag.
 */
export function collidingLine(lines: readonly string[], finalNewline: boolean, index: number, comment: { open: string; close: string }, target: string): string | null {
  const norm = lines.map((l) => l.replace(/[ \t]+$/, ''));
  const before = Buffer.byteLength(norm.slice(0, index).map((l) => `${l}\n`).join(''), 'utf8');
  const base = `${norm[index]!}${comment.open}tag `;
  const at = before + Buffer.byteLength(base, 'utf8');
  const pad = 'x'.repeat((4 - (at % 4)) % 4);
  const line = `${base}${pad}????${comment.close}`;
  const all = [...norm.slice(0, index), line, ...norm.slice(index + 1)].join('\n') + (finalNewline ? '\n' : '');
  const bytes = Buffer.from(all, 'utf8');
  const found = solveLane(bytes, at + pad.length, parseInt(target, 16));
  if (found === null) return null;
  const result = line.replace('????', found);
  const check = [...lines.slice(0, index), result, ...lines.slice(index + 1)].join('\n') + (finalNewline ? '\n' : '');
  return tagOf(check) === target ? result : null;
}
