// Structural rewrites on worker threads, so that a rewrite over many files parses on every core
// (ast-grep's own CLI is multi-threaded): `rewriteTextInPool` has the contract of `rewriteText`,
// texts of ast-grep's built-in grammars go to a small pool of workers (each with its own copy of
// the native module), the others (dynamic grammars, registered once per process) and every text
// after a worker failed are rewritten on the calling thread. Workers only compute: text in, text
// and reports out; they never touch the disk. They start on first use and stop when idle. Texts
// asked for in the same turn of the event loop travel to a worker in one message, and their
// outcomes come back in one (a message costs the calling thread far more than its bytes).
//
// The worker runs this same module (so the bundled CLI needs no extra file): when loaded in a
// worker started with WORKER_ROLE it answers rewrite requests.

import os from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HashlineError, toHashlineError, type ErrorCode } from '../../core/errors/errors.js';
import { languageById, type LanguageInfo } from '../grammar/registry.js';
import { rewriteText, type RewriteOp, type RewriteOutcome } from './rewrite.js';

const WORKER_ROLE = 'hashline-rewrite-worker';
/** Workers stop after this long without work. */
const IDLE_MS = 10_000;

interface Request {
  id: number;
  lang: string;
  raw: string;
  eol: string;
  ops: readonly RewriteOp[];
  strict: boolean;
  diffLabel?: string;
}

type Reply =
  | { id: number; ok: true; outcome: RewriteOutcome }
  | { id: number; ok: false; error: { code: ErrorCode; message: string; details: Record<string, unknown> } };

/** Requests sent together at most (more wait for the next message). */
const BATCH = 32;

async function answer(req: Request): Promise<Reply> {
  try {
    const lang = languageById(req.lang);
    if (!lang) throw new HashlineError('unsupported_language', `unknown grammar ${req.lang}`);
    return { id: req.id, ok: true, outcome: await rewriteText(lang, req.raw, req.eol, req.ops, req.strict, req.diffLabel) };
  } catch (e) {
    const err = toHashlineError(e);
    return { id: req.id, ok: false, error: { code: err.code, message: err.message, details: err.details ?? {} } };
  }
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE && parentPort) {
  const port = parentPort;
  for (const k of ['log', 'info', 'warn', 'error', 'debug'] as const) console[k] = () => undefined;
  // a batch is answered in one message, in order (the texts are parsed one after another anyway)
  let chain = Promise.resolve();
  port.on('message', (batch: Request[]) => {
    chain = chain.then(async () => {
      const replies: Reply[] = [];
      for (const req of batch) replies.push(await answer(req));
      // line sources move rather than copy (each its own buffer: a view of a shared one is copied)
      const transfer = new Set<ArrayBuffer>();
      for (const r of replies) {
        const ls = r.ok ? r.outcome.lineSources : undefined;
        if (ls && ls.byteOffset === 0 && ls.byteLength === ls.buffer.byteLength && ls.buffer instanceof ArrayBuffer) transfer.add(ls.buffer);
      }
      port.postMessage(replies, [...transfer]);
    });
  });
}

/** A reply that never came because the worker failed: the text is rewritten on the calling thread. */
class WorkerLost extends Error {}

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (o: RewriteOutcome) => void; reject: (e: unknown) => void }>;
  /** Requests not sent yet (sent at the end of this turn of the event loop, or once BATCH are waiting). */
  queued: Request[];
  flush: NodeJS.Immediate | undefined;
}

class RewritePool {
  private slots: Slot[] = [];
  private broken = false;
  private nextId = 0;
  /** Messages posted to workers so far. */
  messages = 0;
  private idle: NodeJS.Timeout | undefined;

  constructor(private readonly size: number) {}

  get running(): number {
    return this.slots.length;
  }

  get usable(): boolean {
    return !this.broken && this.size > 0;
  }

  private start(): Slot {
    // the worker's stdout and stderr are its own streams, never read (it writes nothing): in
    // `hashline mcp` the process's stdout is the protocol stream
    const url = new URL(import.meta.url);
    const options = { workerData: { role: WORKER_ROLE }, stdout: true, stderr: true };
    // run from the TypeScript sources (tests, tsx): the worker registers tsx's loader first
    const worker = url.pathname.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(url.href)}))`, { ...options, eval: true })
      : new Worker(url, options);
    worker.unref();
    const slot: Slot = { worker, pending: new Map(), queued: [], flush: undefined };
    const fail = () => {
      this.broken = true;
      this.slots = this.slots.filter((s) => s !== slot);
      lose(slot);
    };
    worker.on('message', (replies: Reply[]) => {
      for (const r of replies) {
        const p = slot.pending.get(r.id);
        if (!p) continue;
        slot.pending.delete(r.id);
        if (r.ok) p.resolve(r.outcome);
        else p.reject(new HashlineError(r.error.code, r.error.message, { details: r.error.details }));
      }
      if (slot.pending.size === 0) {
        // an idle worker does not keep the process alive; a busy one does (someone awaits it)
        worker.unref();
        this.armIdle();
      }
    });
    worker.on('error', fail);
    worker.on('exit', fail);
    return slot;
  }

  private armIdle(): void {
    if (this.slots.some((s) => s.pending.size > 0)) return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.stop(), IDLE_MS);
    this.idle.unref();
  }

  /** Stops every worker (they are started again on the next use). */
  stop(): void {
    clearTimeout(this.idle);
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      s.worker.removeAllListeners('exit');
      s.worker.removeAllListeners('error');
      // texts still out are rewritten on the calling thread
      lose(s);
      void s.worker.terminate();
    }
  }

  run(req: Omit<Request, 'id'>): Promise<RewriteOutcome> {
    clearTimeout(this.idle);
    let slot = this.slots.length === 0 ? undefined : this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    if (!slot || (slot.pending.size > 0 && this.slots.length < this.size)) {
      slot = this.start();
      this.slots.push(slot);
    }
    const id = this.nextId++;
    const target = slot;
    return new Promise<RewriteOutcome>((resolve, reject) => {
      if (target.pending.size === 0) target.worker.ref();
      target.pending.set(id, { resolve, reject });
      target.queued.push({ id, ...req });
      const post = () => {
        if (send(target)) this.messages++;
      };
      if (target.queued.length >= BATCH) post();
      else target.flush ??= setImmediate(post);
    });
  }
}

/** Posts a slot's queued requests to its worker in one message; false when none was queued. */
function send(slot: Slot): boolean {
  clearImmediate(slot.flush);
  slot.flush = undefined;
  const batch = slot.queued;
  slot.queued = [];
  if (batch.length === 0) return false;
  slot.worker.postMessage(batch);
  return true;
}

/** Fails every request of a slot (sent or not) with WorkerLost: they are rewritten on the calling thread. */
function lose(slot: Slot): void {
  clearImmediate(slot.flush);
  slot.flush = undefined;
  slot.queued = [];
  for (const p of slot.pending.values()) p.reject(new WorkerLost());
  slot.pending.clear();
}

/** Workers in the pool: one per core (the calling thread mostly waits on the disk meanwhile). */
const pool = new RewritePool(Math.min(4, os.availableParallelism?.() ?? os.cpus().length));

/** Stops the pool's workers now (tests; a server stops them itself when idle). */
export function stopRewritePool(): void {
  pool.stop();
}

/** Workers running now. */
export function rewriteWorkers(): number {
  return pool.running;
}

/** Messages posted to the workers since the process started (each carries one or more texts). */
export function rewriteMessages(): number {
  return pool.messages;
}

/** `rewriteText` on a worker thread when the grammar is one of ast-grep's built-ins. */
export async function rewriteTextInPool(lang: LanguageInfo, raw: string, eol: string, ops: readonly RewriteOp[], strict = true, diffLabel?: string): Promise<RewriteOutcome> {
  if (lang.pkg || !pool.usable) return rewriteText(lang, raw, eol, ops, strict, diffLabel);
  try {
    return await pool.run({ lang: lang.id, raw, eol, ops: ops.map((o) => ({ pat: o.pat, out: o.out })), strict, ...(diffLabel === undefined ? {} : { diffLabel }) });
  } catch (e) {
    if (e instanceof WorkerLost) return rewriteText(lang, raw, eol, ops, strict, diffLabel);
    throw e;
  }
}
