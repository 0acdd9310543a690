// The read thread of GET /v1/fs/tar, seen from the main thread: one worker (started at the first
// slice, kept, unref'd) that packs slices of files (tar-pack-files.ts) while the walk packs others
// itself, so the per-file system calls of a tree run on both cores (once the thread has loaded:
// before that the walk packs every slice). Replies are taken without waiting for the event loop
// (receiveMessageOnPort), and waited for on a shared counter the thread bumps after each reply. A slice the thread could not pack, or that was in flight when the thread
// went away, is reported lost and the walk packs it itself (the directory descriptors it names stay
// open until then).

import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { FileSlice, PackedSlice } from './tar-pack-files.js';
import type { TarReadData, TarReadRequest } from './tar-read-thread.js';

interface Reply {
  id: number;
  ok: boolean;
  /** sizes, starts, ends of the slice's files (tar-read-thread.ts `packMeta`) */
  meta?: Float64Array;
  bytes?: ArrayBuffer;
}

/** Where the thread's body is: the bundled CLI's own entry, the compiled module, or the TypeScript source (through tsx). */
declare const HASHLINE_TAR_READ: string | undefined;
function startWorker(data: TarReadData): Worker {
  const options = { workerData: data, transferList: [data.port], stdout: true, stderr: true };
  if (typeof HASHLINE_TAR_READ === 'string') return new Worker(new URL(`./${HASHLINE_TAR_READ}`, import.meta.url), options);
  if (import.meta.url.endsWith('.ts')) {
    const body = new URL('./tar-read-thread.ts', import.meta.url).href;
    return new Worker(`import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(body)}))`, { ...options, eval: true });
  }
  return new Worker(new URL('./tar-read-thread.js', import.meta.url), options);
}

/** ES2024's Atomics.waitAsync (in Node since 16; the project's lib is ES2022). */
interface AtomicsWaitAsync {
  waitAsync(a: Int32Array, index: number, value: number, timeoutMs: number): { async: false; value: string } | { async: true; value: Promise<string> };
}

export type SliceOutcome = PackedSlice | 'lost' | undefined;

export class TarReadPool {
  private thread: { worker: Worker; port: MessagePort } | undefined;
  /** [replies posted, thread ready] */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private readonly inFlight = new Set<number>();
  private readonly done = new Map<number, PackedSlice | 'lost'>();
  private nextId = 1;
  private failures = 0;

  /** Slices handed to the thread and not yet back. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Slices handed to the thread since the process started. */
  get submittedCount(): number {
    return this.nextId - 1;
  }

  /** Hands `slice` to the thread: its id, or -1 when there is no thread to take it (the caller packs it). */
  submit(slice: FileSlice): number {
    const t = this.thread ?? this.start();
    // until the thread has loaded its code, the walk packs every slice itself (no request waits for the start)
    if (t === undefined || Atomics.load(this.signal, 1) === 0) return -1;
    const id = this.nextId++;
    const req: TarReadRequest = { id, prefix: slice.prefix, names: slice.names.join('\0'), relDir: slice.relDir, ...(slice.sizesOnly ? { sizesOnly: true } : {}) };
    // the process stays up while a slice is out (a walk waits for it on the shared counter)
    if (this.inFlight.size === 0) t.worker.ref();
    this.inFlight.add(id);
    t.port.postMessage(req);
    return id;
  }

  /** Starts the thread if it is not running; true once it takes slices, false when it cannot be started. */
  async warm(): Promise<boolean> {
    const t = this.thread ?? this.start();
    while (t !== undefined && this.thread === t && Atomics.load(this.signal, 1) === 0) {
      t.worker.ref();
      const r = (Atomics as unknown as AtomicsWaitAsync).waitAsync(this.signal, 1, 0, 50);
      if (r.async) await r.value;
      if (this.inFlight.size === 0) t.worker.unref();
    }
    return t !== undefined && this.thread === t;
  }

  /** Takes slice `id`'s outcome once it has arrived (see `collect`); undefined while in flight. */
  take(id: number): SliceOutcome {
    const r = this.done.get(id);
    if (r !== undefined) this.done.delete(id);
    return r;
  }

  /** Moves every reply that has arrived into the outcomes; the counter value seen before. */
  collect(): number {
    const seen = Atomics.load(this.signal, 0);
    const port = this.thread?.port;
    if (port) {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) this.settle(m.message as Reply);
    }
    return seen;
  }

  /** Resolves when a reply may have arrived since the counter read `seen` (or after a short while). */
  async wait(seen: number): Promise<void> {
    if (this.inFlight.size === 0) return;
    const r = (Atomics as unknown as AtomicsWaitAsync).waitAsync(this.signal, 0, seen, 50);
    if (r.async) await r.value;
  }

  private settle(m: Reply): void {
    if (!this.inFlight.delete(m.id)) return;
    if (this.inFlight.size === 0) this.thread?.worker.unref();
    if (!m.ok || !m.bytes || !m.meta) this.done.set(m.id, 'lost');
    else {
      const n = m.meta.length / 3;
      const meta = m.meta;
      this.done.set(m.id, { sizes: meta.subarray(0, n), starts: meta.subarray(n, 2 * n), ends: meta.subarray(2 * n), bytes: Buffer.from(m.bytes) });
    }
  }

  private start(): { worker: Worker; port: MessagePort } | undefined {
    if (this.failures >= 3) return undefined;
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = startWorker({ port: port2, signal: this.signal.buffer as SharedArrayBuffer });
    } catch {
      this.failures++;
      return undefined;
    }
    worker.unref();
    port1.unref();
    const t = { worker, port: port1 };
    const gone = () => {
      if (this.thread !== t) return;
      this.failures++;
      this.collect(); // replies posted before it went
      this.thread = undefined;
      Atomics.store(this.signal, 1, 0);
      port1.close();
      for (const id of this.inFlight) this.done.set(id, 'lost');
      this.inFlight.clear();
      Atomics.add(this.signal, 0, 1);
      Atomics.notify(this.signal, 0);
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    this.thread = t;
    return t;
  }
}

/** The process's one read thread for archives. */
export const tarReadPool = new TarReadPool();
