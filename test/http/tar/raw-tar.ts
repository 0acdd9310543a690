// Builds tar archives byte by byte (ustar headers), so tests can make members that a packer would
// refuse to write: `../` names, absolute names, links out, devices and fifos.

export interface RawMember {
  name: string;
  /** '0' file, '1' hard link, '2' symlink, '3' char device, '4' block device, '5' directory, '6' fifo */
  type: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  content?: string | Uint8Array;
  linkname?: string;
  mode?: number;
}

function field(buf: Buffer, offset: number, length: number, value: string): void {
  buf.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

function octal(buf: Buffer, offset: number, length: number, value: number): void {
  field(buf, offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
}

export function header(m: RawMember, size: number): Buffer {
  const h = Buffer.alloc(512);
  field(h, 0, 100, m.name);
  octal(h, 100, 8, m.mode ?? (m.type === '5' ? 0o755 : 0o644));
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, 1_700_000_000);
  h.fill(' ', 148, 156);
  h.write(m.type, 156, 'latin1');
  field(h, 157, 100, m.linkname ?? '');
  h.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** A complete archive (with the two zero end blocks). */
export function rawTar(members: readonly RawMember[]): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  for (const m of members) {
    const body = m.content === undefined ? Buffer.alloc(0) : Buffer.from(m.content);
    parts.push(header(m, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return new Uint8Array(Buffer.concat(parts));
}
