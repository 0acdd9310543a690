// Member headers of the archive of GET /v1/fs/tar, written in place into a caller's buffer: a
// plain ustar block over a per-type template when the names fit (the common case: octal digits
// set in place, one checksum pass over the changed fields), else npm `tar`'s pax encoding. Used by
// the walk (members it packs as it goes) and by the writer (members opened when their turn comes).

import { Header, Pax, type HeaderData } from 'tar';

export const TYPE_FLAG = { File: '0', SymbolicLink: '2', Directory: '5' } as const;
export type MemberType = keyof typeof TYPE_FLAG;
const MAX_OCTAL_11 = 8 ** 11;

/** Zero bytes after `size` bytes of content up to the next 512-byte block. */
export const padding = (size: number) => (512 - (size % 512)) % 512;

/**
 * Zeroes `buf` from `from` to `to` with TypedArray's own fill: for the few hundred bytes of a
 * member's padding, Buffer#fill's argument handling costs more than the fill.
 */
export function zero(buf: Buffer, from: number, to: number): void {
  Uint8Array.prototype.fill.call(buf, 0, from, to);
}

/** Room a header may take: a pax header for names up to PATH_MAX and the ustar block after it. */
export const HEADER_ROOM = 16 * 1024;

function headerBlocks(data: HeaderData): Buffer[] {
  const h = new Header(data);
  const needPax = h.encode();
  const blocks: Buffer[] = [];
  if (needPax) blocks.push(new Pax({ path: data.path, linkpath: data.linkpath, size: data.size, mtime: data.mtime } as HeaderData).encode());
  blocks.push(h.block!);
  return blocks;
}

/** `value` as zero-padded octal digits and a NUL in `width` bytes at `off` (no string made). */
function octal(buf: Buffer, off: number, width: number, value: number): void {
  let v = value;
  for (let i = off + width - 2; i >= off; i--) {
    buf[i] = 0x30 + (v % 8);
    v = Math.floor(v / 8);
  }
  buf[off + width - 1] = 0;
}

/**
 * A ustar header block per member type with every fixed field already in place: uid and gid 0,
 * the checksum field as spaces (how the sum is taken), the type flag and the magic. `sum` is the
 * byte sum of the template; the fields left zero are the ones writeHeader fills per member.
 */
const TEMPLATES = Object.fromEntries(
  (Object.keys(TYPE_FLAG) as MemberType[]).map((type) => {
    const b = Buffer.alloc(512);
    octal(b, 108, 8, 0);
    octal(b, 116, 8, 0);
    b.fill(0x20, 148, 156);
    b.write(TYPE_FLAG[type], 156, 1, 'latin1');
    b.write('ustar\u000000', 257, 8, 'latin1');
    let sum = 0;
    for (const x of b) sum += x;
    return [type, { block: b, sum }];
  }),
) as Record<MemberType, { block: Buffer; sum: number }>;

function byteSum(buf: Buffer, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += buf[i]!;
  return sum;
}

/**
 * Writes the header of one member at `off` (at most HEADER_ROOM bytes): a plain ustar block when
 * the names fit, else npm `tar`'s pax encoding. Returns the bytes written.
 */
export function writeHeader(buf: Buffer, off: number, type: MemberType, name: string, mode: number, size: number, mtimeMs: number, linkname = ''): number {
  const nameLen = Buffer.byteLength(name);
  const linkLen = Buffer.byteLength(linkname);
  if (nameLen > 100 || linkLen > 100 || size >= MAX_OCTAL_11) {
    let n = 0;
    const data: HeaderData = { path: name, mode, size, type, ...(type === 'Directory' ? {} : { mtime: new Date(mtimeMs) }), ...(linkname ? { linkpath: linkname } : {}) };
    for (const b of headerBlocks(data)) n += b.copy(buf, off + n);
    return n;
  }
  const template = TEMPLATES[type];
  buf.set(template.block, off); // TypedArray's own copy: Buffer#copy costs more per call at this size
  buf.write(name, off, 100, 'utf8');
  octal(buf, off + 100, 8, mode);
  octal(buf, off + 124, 12, size);
  octal(buf, off + 136, 12, type === 'Directory' ? 0 : Math.floor(mtimeMs / 1000));
  if (linkname) buf.write(linkname, off + 157, 100, 'utf8');
  // the template's sum plus the fields written here (zero in the template)
  const sum = template.sum + byteSum(buf, off, off + 108) + byteSum(buf, off + 124, off + 148) + (linkname ? byteSum(buf, off + 157, off + 257) : 0);
  octal(buf, off + 148, 7, sum);
  buf[off + 155] = 0x20;
  return 512;
}

/** A member's name in the archive: `./` for the archived directory itself, `./rel` below it. */
export const memberName = (rel: string) => (rel === '' ? './' : `./${rel}`);

/** The header of a directory (`./rel/`, time 0) or a symbolic link at `off`; the bytes written. */
export function writeOtherHeader(buf: Buffer, off: number, kind: 'dir' | 'link', rel: string, mode: number, mtimeMs: number, target: string): number {
  const name = memberName(rel);
  if (kind === 'dir') return writeHeader(buf, off, 'Directory', `${name.replace(/\/$/, '')}/`, mode, 0, 0);
  return writeHeader(buf, off, 'SymbolicLink', name, mode, 0, mtimeMs, target);
}
