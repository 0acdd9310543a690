// The body of the read thread of GET /v1/fs/tar (started by tar-read-pool.ts, never imported by
// the main thread): takes slices of files from its port, packs each (tar-pack-files.ts: open with
// no final link followed, fstat, header, read, close) and posts the result back with its buffer
// transferred, then bumps the shared counter the main thread waits on. It opens files only through
// the directory descriptors the main thread checked and holds open until the reply arrives.
//
// The bundled CLI ships this file as its own small entry (bin/hashline-tar-read.mjs).

import { workerData, type MessagePort } from 'node:worker_threads';
import { packSlice, type FileSlice } from './tar-pack-files.js';

export interface TarReadRequest extends FileSlice {
  id: number;
}

export interface TarReadData {
  port: MessagePort;
  /** Int32 [0]: bumped (and notified) after each reply is posted; [1]: set once this thread listens. */
  signal: SharedArrayBuffer;
}

const data = workerData as Partial<TarReadData> | null;
if (data?.port && data.signal) {
  const { port } = data;
  const signal = new Int32Array(data.signal);
  port.on('message', (req: TarReadRequest) => {
    let reply;
    try {
      const r = packSlice(req);
      // the Buffer is the whole of its own ArrayBuffer (allocUnsafeSlow): it moves, no copy
      reply = { id: req.id, ok: true, sizes: r.sizes, starts: r.starts, ends: r.ends, bytes: r.bytes.buffer };
      port.postMessage(reply, [r.bytes.buffer as ArrayBuffer]);
    } catch (e) {
      port.postMessage({ id: req.id, ok: false, message: (e as Error).message });
    }
    Atomics.add(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
  Atomics.store(signal, 1, 1);
}
