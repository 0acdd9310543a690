// SQL candidate validation on one worker thread (seed 004): PostgreSQL 18 core SQL through
// libpg-query's WASM parser, started lazily on the first request (io/sql/sql-worker-thread.ts is its
// body). One request runs at a time; admission is decided synchronously when a request comes:
//
// - 512 KiB per source (`source_too_large`, not retryable), 2 MiB outstanding, 8 requests in total
//   (the active one plus up to 7 waiting): past those a request is refused at once with the
//   retryable `sql_validation_unavailable` (details.reason `queue_full` / `outstanding_bytes`);
// - a 5-second end-to-end deadline per request, from admission through queueing, the worker's
//   start, the parse and the result (reason `deadline`);
// - bounded retirement: a worker that misses a deadline, fails or hangs is terminated, and the
//   capacity of the request it held stays reserved until the thread's exit is confirmed; no new
//   worker starts before that (one worker at a time), so a hung parser never multiplies.
//
// A caller that cancels (signal) is answered `aborted` at once; a request it left on the worker
// keeps its capacity until the worker answers or is retired. The clock is injectable for tests.

import { Worker } from 'node:worker_threads';
import { HashlineError } from '../../core/errors/errors.js';
import * as msg from '../../core/messages/sql.js';
import { normalizeSqlTarget, type SqlResult, type SqlTarget } from '../../core/sql/sql-selection.js';
import type { SqlWorkerData, SqlWorkerReply, SqlWorkerRequest } from './sql-worker-thread.js';

export type { SqlDiagnostic, SqlResult, SqlTarget } from '../../core/sql/sql-selection.js';

export interface SqlLimits {
  readonly sourceBytes: number;
  readonly outstandingBytes: number;
  readonly requests: number;
  readonly deadlineMs: number;
}

export const SQL_LIMITS: SqlLimits = Object.freeze({
  /** UTF-8 bytes of one source. */
  sourceBytes: 512 * 1024,
  /** UTF-8 bytes of every admitted request not yet released. */
  outstandingBytes: 2 * 1024 * 1024,
  /** Requests admitted and not yet released: the active one plus the waiting ones. */
  requests: 8,
  /** End to end, from admission to the result. */
  deadlineMs: 5_000,
});

/** Timers the validator uses (the deadline and the idle stop); tests pass a manual clock. */
export interface SqlClock {
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

const realClock: SqlClock = {
  setTimer: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface SqlValidatorOptions {
  limits?: Partial<SqlLimits>;
  clock?: SqlClock;
  /** A worker with no work is stopped after this long (default 60 s); the next request starts one again. */
  idleMs?: number;
  /** Tests only: the worker spins forever on a text containing this string (default: $HASHLINE_TEST_SQL_HANG). */
  hangWhen?: string;
}

/** What the validator holds now (tests count work with it). */
export interface SqlValidatorLoad {
  /** Admitted requests whose capacity is not yet released (including those held by a retiring worker). */
  requests: number;
  bytes: number;
  waiting: number;
  active: boolean;
  worker: 'none' | 'running' | 'retiring';
  /** Workers started and retired since the validator was made. */
  started: number;
  retired: number;
}

interface Job {
  id: number;
  text: string;
  bytes: number;
  timer: unknown;
  /** The caller has been answered (result, deadline, abort). */
  answered: boolean;
  resolve(r: SqlResult): void;
  reject(e: HashlineError): void;
  unlisten(): void;
}

interface Thread {
  worker: Worker;
  retiring: boolean;
  /** Jobs whose capacity stays reserved until this thread's exit is confirmed. */
  held: Job[];
  gone: Promise<void>;
}

function unavailable(reason: string, message: string, retryable = true, details: Record<string, unknown> = {}): HashlineError {
  return new HashlineError('sql_validation_unavailable', message, { retryable, details: { reason, ...details } });
}

/** Where the worker's body is: the bundled CLI's own entry, the compiled module, or the TypeScript source (through tsx). */
declare const HASHLINE_SQL_WORKER: string | undefined;
function startWorker(data: SqlWorkerData): Worker {
  const options = { workerData: data, stdout: true, stderr: true };
  if (typeof HASHLINE_SQL_WORKER === 'string') return new Worker(new URL(`./${HASHLINE_SQL_WORKER}`, import.meta.url), options);
  if (import.meta.url.endsWith('.ts')) {
    const body = new URL('./sql-worker-thread.ts', import.meta.url).href;
    return new Worker(`import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(body)}))`, { ...options, eval: true });
  }
  return new Worker(new URL('./sql-worker-thread.js', import.meta.url), options);
}

export class SqlValidator {
  private readonly limits: SqlLimits;
  private readonly clock: SqlClock;
  private readonly idleMs: number;
  private readonly hangWhen: string | undefined;
  private readonly queue: Job[] = [];
  private active: Job | undefined;
  private thread: Thread | undefined;
  private idleTimer: unknown;
  private reservedRequests = 0;
  private reservedBytes = 0;
  private nextId = 0;
  private started = 0;
  private retired = 0;
  private closed = false;

  constructor(options: SqlValidatorOptions = {}) {
    // tests of a spawned server set these two in its environment
    const envDeadline = Number(process.env.HASHLINE_TEST_SQL_DEADLINE_MS);
    this.limits = Object.freeze({ ...SQL_LIMITS, ...(envDeadline > 0 ? { deadlineMs: envDeadline } : {}), ...options.limits });
    this.hangWhen = options.hangWhen ?? (process.env.HASHLINE_TEST_SQL_HANG || undefined);
    this.clock = options.clock ?? realClock;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /**
   * Parses `text` as PostgreSQL 18 core SQL. Resolves `{valid, diagnostics}` (parse errors with
   * 1-based line and column); rejects with `sql_validation_unavailable` when it cannot say (target
   * not supported, too large, busy, deadline, worker failure) or `aborted`.
   */
  validate(text: string, sel: SqlTarget, options: { signal?: AbortSignal } = {}): Promise<SqlResult> {
    try {
      return this.admit(text, sel, options.signal);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private admit(text: string, sel: SqlTarget, signal: AbortSignal | undefined): Promise<SqlResult> {
    if (this.closed) throw unavailable('closed', msg.VALIDATOR_CLOSED, false);
    const target = normalizeSqlTarget(sel);
    if (!target.supported) throw unavailable('unsupported', msg.unsupportedTarget(msg.describeTarget(target.dialect, target.version, target.variant)), false);
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.limits.sourceBytes) {
      throw unavailable('source_too_large', msg.sourceTooLarge(bytes, this.limits.sourceBytes), false, { bytes, limit: this.limits.sourceBytes });
    }
    if (signal?.aborted) throw new HashlineError('aborted', msg.VALIDATION_ABORTED);
    if (this.reservedRequests >= this.limits.requests) throw unavailable('queue_full', msg.queueFull(this.limits.requests), true, { limit: this.limits.requests });
    if (this.reservedBytes + bytes > this.limits.outstandingBytes) {
      throw unavailable('outstanding_bytes', msg.outstandingBytes(this.reservedBytes + bytes, this.limits.outstandingBytes), true, { limit: this.limits.outstandingBytes });
    }
    this.reservedRequests++;
    this.reservedBytes += bytes;
    return new Promise<SqlResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, text, bytes, timer: undefined, answered: false, resolve, reject, unlisten: () => undefined };
      job.timer = this.clock.setTimer(() => this.onDeadline(job), this.limits.deadlineMs);
      if (signal) {
        const onAbort = () => this.onAbort(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.unlisten = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** What the validator holds now. */
  load(): SqlValidatorLoad {
    const t = this.thread;
    return {
      requests: this.reservedRequests,
      bytes: this.reservedBytes,
      waiting: this.queue.length,
      active: this.active !== undefined,
      worker: t === undefined ? 'none' : t.retiring ? 'retiring' : 'running',
      started: this.started,
      retired: this.retired,
    };
  }

  /** Resolves once no worker is being retired (its held capacity released). */
  async retirement(): Promise<void> {
    while (this.thread?.retiring) await this.thread.gone;
  }

  /** Refuses new requests, answers those waiting, stops the worker; resolves when its exit is confirmed. */
  async close(): Promise<void> {
    this.closed = true;
    this.clock.clearTimer(this.idleTimer);
    for (const job of this.queue.splice(0)) this.finish(job, unavailable('closed', msg.VALIDATOR_CLOSED, false));
    if (this.active) this.answer(this.active, unavailable('closed', msg.VALIDATOR_CLOSED, false));
    const t = this.thread;
    if (t) {
      if (!t.retiring) this.retire(t);
      await t.gone;
    }
  }

  private pump(): void {
    if (this.active || this.closed || this.thread?.retiring) return;
    const job = this.queue.shift();
    if (!job) return;
    this.clock.clearTimer(this.idleTimer);
    let t: Thread;
    try {
      t = this.thread ?? this.spawn();
    } catch (e) {
      // a thread that cannot even be made (resources): this request is answered, the next one tries again
      this.finish(job, unavailable('worker_failed', msg.workerFailed(e instanceof Error ? e.message : String(e))));
      this.pump();
      return;
    }
    this.active = job;
    t.worker.ref();
    t.worker.postMessage({ id: job.id, text: job.text } satisfies SqlWorkerRequest);
  }

  private spawn(): Thread {
    const worker = startWorker(this.hangWhen === undefined ? {} : { hangWhen: this.hangWhen });
    this.started++;
    let confirm!: () => void;
    const t: Thread = { worker, retiring: false, held: [], gone: new Promise<void>((r) => (confirm = r)) };
    worker.on('message', (reply: SqlWorkerReply) => this.onReply(t, reply));
    worker.on('error', (e: unknown) => this.onFailure(t, e instanceof Error ? e.message : String(e)));
    worker.on('exit', (code: number) => {
      if (!t.retiring) this.onFailure(t, `the worker exited (code ${code})`);
      this.onExit(t);
      confirm();
    });
    this.thread = t;
    return t;
  }

  private onReply(t: Thread, reply: SqlWorkerReply): void {
    const job = this.active;
    if (t !== this.thread || t.retiring || !job || job.id !== reply.id) return;
    if (!reply.ok) {
      this.onFailure(t, reply.message);
      return;
    }
    this.active = undefined;
    this.finish(job, { valid: reply.valid, diagnostics: reply.diagnostics });
    if (this.queue.length === 0) {
      t.worker.unref();
      this.clock.clearTimer(this.idleTimer);
      this.idleTimer = this.clock.setTimer(() => this.onIdle(t), this.idleMs);
    }
    this.pump();
  }

  /** The worker cannot be trusted any more: its request is answered and it is retired. */
  private onFailure(t: Thread, reason: string): void {
    if (t.retiring) return;
    if (this.active) this.answer(this.active, unavailable('worker_failed', msg.workerFailed(reason)));
    this.retire(t);
  }

  private onDeadline(job: Job): void {
    const err = unavailable('deadline', msg.deadlineMissed(this.limits.deadlineMs), true, { deadlineMs: this.limits.deadlineMs });
    const waiting = this.queue.indexOf(job);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      this.finish(job, err);
      return;
    }
    this.answer(job, err);
    if (job === this.active && this.thread) this.retire(this.thread);
  }

  private onAbort(job: Job): void {
    const err = new HashlineError('aborted', msg.VALIDATION_ABORTED);
    const waiting = this.queue.indexOf(job);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      this.finish(job, err);
      return;
    }
    // on the worker: answered now, its capacity kept until the worker answers or is retired
    this.answer(job, err);
  }

  private onIdle(t: Thread): void {
    if (this.thread !== t || this.active || this.queue.length > 0 || t.retiring) return;
    this.retire(t);
  }

  /** Terminates the worker; the active job's capacity is held until the exit is confirmed. */
  private retire(t: Thread): void {
    if (t.retiring) return;
    t.retiring = true;
    if (this.active) {
      t.held.push(this.active);
      this.active = undefined;
    }
    void t.worker.terminate().catch(() => undefined);
  }

  private onExit(t: Thread): void {
    t.retiring = true;
    if (this.active && this.thread === t) {
      t.held.push(this.active);
      this.active = undefined;
    }
    this.retired++;
    for (const job of t.held.splice(0)) this.release(job);
    if (this.thread === t) this.thread = undefined;
    this.pump();
  }

  /**
   * Answers the caller once (later answers are dropped). Capacity and the deadline stay: a job
   * answered while on the worker still retires a worker that misses its deadline.
   */
  private answer(job: Job, outcome: SqlResult | HashlineError): void {
    if (job.answered) return;
    job.answered = true;
    job.unlisten();
    if (outcome instanceof HashlineError) job.reject(outcome);
    else job.resolve(outcome);
  }

  private release(job: Job): void {
    this.clock.clearTimer(job.timer);
    this.reservedRequests--;
    this.reservedBytes -= job.bytes;
  }

  private finish(job: Job, outcome: SqlResult | HashlineError): void {
    this.answer(job, outcome);
    this.release(job);
  }
}
