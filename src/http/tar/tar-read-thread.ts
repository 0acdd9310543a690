// The body of the read thread of GET /v1/fs/tar (started by tar-read-pool.ts, never imported by
// the main thread): takes slices of files from its port, packs each (tar-pack-files.ts: open with
// no final link followed, fstat, header, read, close) and posts the result back with its buffer
// transferred, then bumps the shared counter the main thread waits on. It opens files only through
// the directory descriptors the main thread checked and holds open until the reply arrives.
//
// The bundled CLI ships this file as its own small entry (bin/hashline-tar-read.mjs).

import { workerData, type MessagePort } from 'node:worker_threads';
import { listSizes, packSlice } from './tar-pack-files.js';

/**
 * One slice on the wire: its names in one string (NUL between them: a file name holds neither NUL
 * nor `/`) and the archive names' common directory part, so a message clones two strings instead
 * of two per file.
 */
export interface TarReadRequest {
  id: number;
  prefix: string;
  /** The files' names joined by NUL. */
  names: string;
  /** The archive names are `relDir + name`. */
  relDir: string;
  /** Only the files' sizes (lstat; the listing's byte cap): the reply's starts and ends are -1 and its bytes empty. */
  sizesOnly?: boolean;
}

/** Sizes, starts and ends of a packed slice (n of each) in one array, moved with the reply. */
export function packMeta(sizes: readonly number[], starts: readonly number[], ends: readonly number[]): Float64Array {
  const n = sizes.length;
  const meta = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    meta[i] = sizes[i]!;
    meta[n + i] = starts[i]!;
    meta[2 * n + i] = ends[i]!;
  }
  return meta;
}

export interface TarReadData {
  port: MessagePort;
  /** Int32 [0]: bumped (and notified) after each reply is posted; [1]: set once this thread listens. */
  signal: SharedArrayBuffer;
}

/** A sizes-only reply in the packed slice's shape: nothing packed. */
function sizesSlice(prefix: string, names: string[]): { sizes: number[]; starts: number[]; ends: number[]; bytes: Buffer } {
  const none = new Array<number>(names.length).fill(-1);
  return { sizes: listSizes(prefix, names), starts: none, ends: none, bytes: Buffer.allocUnsafeSlow(0) };
}

const data = workerData as Partial<TarReadData> | null;
if (data?.port && data.signal) {
  const { port } = data;
  const signal = new Int32Array(data.signal);
  port.on('message', (req: TarReadRequest) => {
    let reply;
    try {
      const names = req.names.split('\0');
      const r = req.sizesOnly ? sizesSlice(req.prefix, names) : packSlice({ prefix: req.prefix, names, rels: names.map((n) => req.relDir + n) });
      const meta = packMeta(r.sizes, r.starts, r.ends);
      // the Buffer is the whole of its own ArrayBuffer (allocUnsafeSlow): it moves, no copy
      reply = { id: req.id, ok: true, meta, bytes: r.bytes.buffer };
      port.postMessage(reply, [r.bytes.buffer as ArrayBuffer, meta.buffer as ArrayBuffer]);
    } catch (e) {
      port.postMessage({ id: req.id, ok: false, message: (e as Error).message });
    }
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
  Atomics.store(signal, 1, 1);
}
