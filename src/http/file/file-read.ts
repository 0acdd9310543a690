// GET /v1/fs/file: the range rule is decided before anything is opened; the file is opened through
// the guard and openVerified; small files are read whole and sliced, larger ones streamed through
// a slicer that stops reading once the window closes (memory O(window), the handle closed on every
// path, client abort included).

import { Readable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { LineSlicer, lineWindow, sliceLines, type LineWindow, type LineWindowQuery } from '../../core/read/line-window.js';
import { CANNOT_READ_FILE, NO_SUCH_FILE, PATH_IS_DIRECTORY, PATH_NOT_REGULAR } from '../../core/messages/http.js';
import { openVerified } from '../../io/guard/open-verified.js';
import { readByNameSync, readVerifiedSync } from '../../io/read/read-verified-sync.js';
import type { Engine } from '../../tools/engine.js';

/** Files up to this size are read in one call and sliced in memory. */
const WHOLE_READ_BYTES = 64 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** A readable over an open handle that applies a window and closes the handle when destroyed. */
export class WindowStream extends Readable {
  private pos = 0;
  /** Reused while the window has not opened yet (nothing of it was pushed), so skipping allocates nothing. */
  private spare: Buffer | null = null;

  constructor(
    private readonly handle: FileHandle,
    private readonly slicer: LineSlicer | null,
  ) {
    super();
  }

  override _read(): void {
    const buf = this.spare ?? Buffer.allocUnsafe(CHUNK_BYTES);
    this.spare = null;
    this.handle.read(buf, 0, buf.length, this.pos).then(
      ({ bytesRead }) => {
        if (this.destroyed) return;
        if (bytesRead === 0) {
          this.push(null);
          return;
        }
        this.pos += bytesRead;
        const chunk = buf.subarray(0, bytesRead);
        if (this.slicer === null) {
          this.push(chunk);
          return;
        }
        const out = this.slicer.push(chunk);
        if (this.slicer.done) {
          if (out.length > 0) this.push(out);
          this.push(null);
        } else if (out.length > 0) this.push(out);
        else {
          this.spare = buf;
          this._read();
        }
      },
      (e: unknown) => this.destroy(e as Error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.handle.close().then(
      () => callback(error),
      () => callback(error),
    );
  }
}

function readError(e: unknown): HashlineError {
  const err = toHashlineError(e);
  switch (err.code) {
    case 'not_found':
      return new HashlineError('not_found', NO_SUCH_FILE, { cause: e });
    case 'is_directory':
      return new HashlineError('is_directory', PATH_IS_DIRECTORY, { cause: e });
    case 'not_regular_file':
      return new HashlineError('not_regular_file', PATH_NOT_REGULAR, { cause: e });
    case 'io_error':
    case 'internal':
      return new HashlineError('io_error', CANNOT_READ_FILE, { cause: e });
    default:
      return err;
  }
}

/** `head` plus whatever follows it in the file (a file that grew after its size was taken). */
async function readRest(handle: FileHandle, head: Buffer): Promise<Buffer> {
  const parts = [head];
  let pos = head.length;
  for (;;) {
    const b = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(b, 0, b.length, pos);
    if (bytesRead === 0) return Buffer.concat(parts);
    parts.push(b.subarray(0, bytesRead));
    pos += bytesRead;
  }
}

/** The range rule as a coded error (400), or the window (`null`: no range). */
export function windowOrThrow(query: LineWindowQuery): LineWindow | null {
  const w = lineWindow(query);
  if (!w.ok) throw new HashlineError('invalid_range', w.message);
  return w.window;
}

/**
 * The plain case (a small regular file, no link on the way) in one synchronous pass that skips the
 * guard's lstat of the name: the window's bytes, or null when the full path below must decide
 * (refusals included, so their wording stays its own). Throws the range rule's 400 as
 * readFileWindow does. Also what fast-file-get.ts answers with.
 */
export function readPlainWindow(engine: Engine, query: LineWindowQuery): Buffer | null {
  const window = windowOrThrow(query);
  const plain = readByNameSync(engine.guard, query.path as string, WHOLE_READ_BYTES);
  if (plain === null) return null;
  const out = sliceLines(plain, window);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** Opens the window of the file named by `query.path`: a Buffer (small files) or a stream. */
export async function readFileWindow(engine: Engine, query: LineWindowQuery): Promise<Buffer | Readable> {
  const plain = readPlainWindow(engine, query);
  if (plain) return plain;
  const window = windowOrThrow(query);
  const rp = await engine.guard.resolve(query.path as string, 'read');
  if (!rp.exists) throw new HashlineError('not_found', NO_SUCH_FILE, { details: { path: rp.display } });
  // Small regular files: one synchronous verified read (open, fstat, descriptor check, read, close
  // cost microseconds each; five thread-pool round trips cost more than the whole read).
  let small;
  try {
    small = readVerifiedSync(engine.guard, rp.real, rp.display, WHOLE_READ_BYTES);
  } catch (e) {
    throw readError(e);
  }
  if (small) {
    const out = sliceLines(small.bytes, window);
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  }
  let vh;
  try {
    vh = await openVerified(engine.guard, rp, 'read', 'file');
  } catch (e) {
    throw readError(e);
  }
  if (vh.size <= WHOLE_READ_BYTES) {
    try {
      // one read of size+1 bytes: fewer means the whole file is in hand; more means it grew, so read on
      const buf = Buffer.allocUnsafe(vh.size + 1);
      const { bytesRead } = await vh.handle.read(buf, 0, buf.length, 0);
      const bytes = bytesRead <= vh.size ? buf.subarray(0, bytesRead) : await readRest(vh.handle, buf);
      const out = sliceLines(bytes, window);
      return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    } catch (e) {
      throw readError(e);
    } finally {
      await vh.handle.close().catch(() => undefined);
    }
  }
  return new WindowStream(vh.handle, window === null ? null : new LineSlicer(window));
}
