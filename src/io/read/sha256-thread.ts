// SHA-256 on a thread of its own, over shared memory: the caller reads a file into a buffer backed
// by a SharedArrayBuffer (takeShared), hands a view of it to a Sha256Job and goes on with its own
// work on the same bytes (the tag, the line scan) while the thread hashes them, so that a read that
// names a file's SHA-256 and tag keeps two cores busy. Nothing is copied: the thread hashes the very
// bytes the caller read, and tells when it is done with them (the buffer may then be filled again).
//
// One thread, started on first use (a small script of its own: it needs node:crypto alone, so it
// runs the same from the sources and from the bundle), kept while a job waits on it and stopped
// after IDLE_MS without work. When it cannot start, or once it failed, `sha256Thread()` is
// undefined and callers hash on their own thread; they also do when no core is to spare
// (`sha256ThreadIfSpare`).

import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { HashlineError } from '../../core/errors/errors.js';

/** The thread stops after this long without work. */
const IDLE_MS = 10_000;
/**
 * The thread's heap, kept small (its memory counts against a read's peak): it holds a hash state
 * per job and the messages in flight, nothing more.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 12 };

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const arena = new Uint8Array(workerData.arena);
const done = new Int32Array(workerData.done);
const jobs = new Map();
parentPort.on('message', (m) => {
  // [op, job, offset, length] (bytes of the arena): 0 update (answered with the job), 1 end
  // (answered with the digest), 2 update and end at once, 3 drop
  const [op, id, offset, length] = m;
  if (op === 3) { jobs.delete(id); return; }
  let h = jobs.get(id);
  if (h === undefined) { h = createHash('sha256'); jobs.set(id, h); }
  if (op !== 1) h.update(arena.subarray(offset, offset + length));
  // what the thread has done, seen by the caller at once (its answers wait for a turn of its event loop)
  Atomics.add(done, 0, 1);
  if (op === 0) { parentPort.postMessage([id, null]); return; }
  jobs.delete(id);
  parentPort.postMessage([id, h.digest('hex')]);
});
`;

type Waiter = { resolve: (hex: string | null) => void; reject: (e: unknown) => void };

/** A thread lost while a job waited on it: the job's file gets a coded error (hashing it again could read other bytes). */
function threadLost(): HashlineError {
  return new HashlineError('io_error', 'the SHA-256 thread stopped before it answered');
}

export class Sha256Thread {
  private worker: Worker | undefined;
  private broken = false;
  private nextId = 1;
  /** Per job, the answers awaited in the order asked (the thread answers a job's messages in order). */
  private readonly waiting = new Map<number, Waiter[]>();
  private pendingCount = 0;
  /** Messages posted that the thread works through, and (shared with it) those it has worked through. */
  private posted = 0;
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private idle: NodeJS.Timeout | undefined;

  /** Messages the thread has not worked through yet (read from shared memory: up to date whatever this thread is doing). */
  get queued(): number {
    return this.posted - Atomics.load(this.done, 0);
  }

  private start(): Worker {
    // the thread writes nothing; its streams are its own (stdout is the protocol stream in `hashline mcp`)
    this.posted = 0;
    Atomics.store(this.done, 0, 0);
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { arena: theArena(), done: this.done.buffer }, stdout: true, stderr: true, resourceLimits: RESOURCE_LIMITS });
    worker.unref();
    const fail = () => {
      this.broken = true;
      this.worker = undefined;
      this.loseAll();
    };
    worker.on('message', ([id, hex]: [number, string | null]) => {
      const queue = this.waiting.get(id);
      const w = queue?.shift();
      if (queue?.length === 0) this.waiting.delete(id);
      if (w === undefined) return;
      if (--this.pendingCount === 0) {
        // an idle thread does not keep the process alive; a busy one does (someone awaits it)
        worker.unref();
        this.armIdle();
      }
      w.resolve(hex);
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    return worker;
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
    this.idle.unref();
  }

  private loseAll(): void {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    this.pendingCount = 0;
    for (const w of all) w.reject(threadLost());
  }

  /** Stops the thread (started again on next use); jobs still waiting fail. */
  stop(): void {
    clearTimeout(this.idle);
    const w = this.worker;
    this.worker = undefined;
    if (w === undefined) return;
    w.removeAllListeners('exit');
    w.removeAllListeners('error');
    this.loseAll();
    void w.terminate();
  }

  /** True once the thread runs (started here if need be); false when it cannot (it is then not tried again). */
  ready(): boolean {
    if (this.broken) return false;
    try {
      if (this.worker === undefined) {
        this.worker = this.start();
        // stopped again unless a job comes
        this.armIdle();
      }
      return true;
    } catch {
      this.broken = true;
      return false;
    }
  }

  newJob(): number {
    return this.nextId++;
  }

  /** Posts one message (`view` lies in the arena); but for a drop, a promise of its answer (null for an update, the hex digest for an end). */
  post(op: 0 | 1 | 2 | 3, id: number, view?: Uint8Array): Promise<string | null> | undefined {
    clearTimeout(this.idle);
    const worker = (this.worker ??= this.start());
    worker.postMessage(view === undefined ? [op, id] : [op, id, view.byteOffset, view.byteLength]);
    if (op === 3) return undefined;
    this.posted++;
    if (this.pendingCount++ === 0) worker.ref();
    return new Promise<string | null>((resolve, reject) => {
      const queue = this.waiting.get(id);
      if (queue === undefined) this.waiting.set(id, [{ resolve, reject }]);
      else queue.push({ resolve, reject });
    });
  }
}

let thread: Sha256Thread | undefined;

/** The shared thread, or undefined when it cannot be used (then hash on the calling thread). */
export function sha256Thread(): Sha256Thread | undefined {
  thread ??= new Sha256Thread();
  return thread.ready() ? thread : undefined;
}

const CORES = os.availableParallelism();

/**
 * The shared thread when a core is to spare: the load average of the last minute leaves at least
 * one core idle. On a busy machine the thread only shares a core with this one (or its sibling):
 * no gain in time, and the handing over costs CPU (measured: docs/BENCHMARKS.md).
 */
export function sha256ThreadIfSpare(): Sha256Thread | undefined {
  return CORES > 1 && (os.loadavg()[0] ?? CORES) <= CORES - 1 ? sha256Thread() : undefined;
}

/** The size of every shared buffer: a chunk of 1 MiB plus the byte that shows a file's end. */
export const SHARED_BYTES = 1024 * 1024 + 1;
/**
 * Shared buffers in all: slices of one arena the thread is handed once, so a message names a slice
 * by its offset and the memory stays bounded (a read in progress holds a few; past SLOTS, callers
 * hash on their own thread).
 */
const SLOTS = 12;
let arena: SharedArrayBuffer | undefined;
let slots: Buffer[] = [];
const free: number[] = [];

function theArena(): SharedArrayBuffer {
  if (arena === undefined) {
    arena = new SharedArrayBuffer(SLOTS * SHARED_BYTES);
    const a = arena;
    slots = Array.from({ length: SLOTS }, (_, i) => Buffer.from(a, i * SHARED_BYTES, SHARED_BYTES));
    for (let i = SLOTS - 1; i >= 0; i--) free.push(i);
  }
  return arena;
}

/** A buffer of SHARED_BYTES in the arena the thread can hash without a copy, or undefined when all are taken. */
export function takeShared(): Buffer | undefined {
  theArena();
  const i = free.pop();
  return i === undefined ? undefined : slots[i];
}

/** Gives a buffer of takeShared back, once neither thread uses it any more. */
export function giveShared(b: Buffer): void {
  free.push(b.byteOffset / SHARED_BYTES);
}

/** Buffers of the arena free now (all of them once no read holds one). */
export function sharedFree(): number {
  theArena();
  return free.length;
}

/** True when `b` lies in the arena (a view the thread can be handed). */
export function isShared(b: Uint8Array): boolean {
  return arena !== undefined && b.buffer === arena;
}

/**
 * One SHA-256 on the thread, fed in order. `update` resolves once the thread has hashed the view
 * (its bytes may then change); `end` gives the digest of everything fed. A job not ended is
 * dropped with `drop` (after an error or a cancellation).
 */
export class Sha256Job {
  private readonly id: number;
  private ended = false;

  constructor(private readonly t: Sha256Thread) {
    this.id = t.newJob();
  }

  update(view: Uint8Array): Promise<unknown> {
    return this.t.post(0, this.id, view)!;
  }

  /** The digest, after `last` (bytes fed with the end in one message) when given. */
  async end(last?: Uint8Array): Promise<string> {
    this.ended = true;
    const hex = await this.t.post(last === undefined ? 1 : 2, this.id, last)!;
    return hex!;
  }

  drop(): void {
    if (this.ended) return;
    this.ended = true;
    this.t.post(3, this.id);
  }
}
