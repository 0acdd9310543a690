// Preview receipts: an opaque, one-use token for exactly the candidate a preview produced, bound to
// the file (real path), the MCP session, the configuration (generation and identity), the source's
// and the candidate's SHA-256, and whatever else the candidate depends on (the payload). It lives 5
// minutes; a session holds at most 32 receipts and 16 MiB of candidates, 4 MiB each. A commit
// reserves its receipts for the whole batch: success consumes them, a confirmed no-change failure
// or a verified rollback releases them for a retry, an uncertain outcome invalidates them; a second
// commit of a reserved receipt is refused. The checks and their texts follow spec/boundary.md.

import { randomBytes } from 'node:crypto';
import { HashlineError } from './errors/errors.js';
import * as msg from './messages/patch.js';

export const RECEIPT_TTL_MS = 5 * 60 * 1000;
export const MAX_CANDIDATE_BYTES = 4 * 1024 * 1024;
export const MAX_SESSION_RECEIPTS = 32;
export const MAX_SESSION_BYTES = 16 * 1024 * 1024;

/** Where a receipt is presented: it must be the file, session and configuration it was made for. */
export interface ReceiptContext {
  readonly filePath: string;
  readonly sessionId: string;
  readonly generation: number;
  readonly identity: string;
}

export interface ReceiptBinding extends ReceiptContext {
  readonly sourceSha256: string;
  readonly candidateSha256: string;
}

export interface ReceiptRecord<T> extends ReceiptBinding {
  readonly id: string;
  readonly candidate: Uint8Array;
  readonly payload: T;
  readonly expiresAt: number;
}

export interface Reservation<T> {
  readonly record: ReceiptRecord<T>;
  /** The batch committed: the receipt is spent. */
  consume(): void;
  /** Nothing changed (or the change was verifiably undone): the receipt may be used again. */
  release(): void;
  /** The outcome is uncertain or the source changed: a new preview is required. */
  invalidate(): void;
}

interface Entry<T> {
  record: ReceiptRecord<T>;
  reserved: boolean;
}

export class ReceiptBook<T = unknown> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? RECEIPT_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Drops expired receipts that no commit holds. */
  private prune(): void {
    const t = this.now();
    for (const [id, e] of this.entries) if (!e.reserved && t > e.record.expiresAt) this.entries.delete(id);
  }

  /** Checks that `session` may hold receipts for these candidates, before any is issued. */
  checkRoom(sessionId: string, candidates: readonly Uint8Array[]): void {
    this.prune();
    const big = candidates.find((c) => c.length > MAX_CANDIDATE_BYTES);
    if (big) throw limit(`a candidate of ${big.length} bytes; at most ${MAX_CANDIDATE_BYTES} per candidate`);
    let count = candidates.length;
    let bytes = candidates.reduce((n, c) => n + c.length, 0);
    for (const e of this.entries.values()) {
      if (e.record.sessionId !== sessionId) continue;
      count++;
      bytes += e.record.candidate.length;
    }
    if (count > MAX_SESSION_RECEIPTS) throw limit(`${count} receipts; at most ${MAX_SESSION_RECEIPTS} per session`);
    if (bytes > MAX_SESSION_BYTES) throw limit(`${bytes} bytes of candidates; at most ${MAX_SESSION_BYTES} per session`);
  }

  /** Issues a receipt (call checkRoom first for a batch, so a limit refuses the whole batch). */
  issue(binding: ReceiptBinding, candidate: Uint8Array, payload: T): ReceiptRecord<T> {
    this.checkRoom(binding.sessionId, [candidate]);
    const id = `pr_${randomBytes(18).toString('base64url')}`;
    const record: ReceiptRecord<T> = { ...binding, id, candidate, payload, expiresAt: this.now() + this.ttlMs };
    this.entries.set(id, { record, reserved: false });
    return record;
  }

  /** Forgets a receipt issued by a batch that then failed. */
  discard(id: string): void {
    this.entries.delete(id);
  }

  /**
   * Reserves `id` for a commit at `at`. Refusals: unknown or used, expired (spent), another
   * session's or another file's (kept for its owner), configuration changed (spent), reserved by
   * another commit.
   */
  reserve(id: string, at: ReceiptContext): Reservation<T> {
    const e = this.entries.get(id);
    if (!e) throw new HashlineError('preview_receipt_invalid', msg.receiptUnknown, { details: { reason: 'unknown' } });
    const r = e.record;
    if (r.sessionId !== at.sessionId) throw new HashlineError('preview_receipt_invalid', msg.receiptWrongSession, { details: { reason: 'session' } });
    if (e.reserved) throw new HashlineError('preview_receipt_in_use', msg.receiptInUse, { retryable: true });
    if (this.now() > r.expiresAt) {
      this.entries.delete(id);
      throw new HashlineError('preview_receipt_expired', msg.receiptExpired, { details: { expiredAt: new Date(r.expiresAt).toISOString() } });
    }
    if (r.filePath !== at.filePath) throw new HashlineError('preview_receipt_invalid', msg.receiptWrongFile, { details: { reason: 'file' } });
    if (r.generation !== at.generation || r.identity !== at.identity) {
      this.entries.delete(id);
      throw new HashlineError('preview_receipt_invalid', msg.receiptStaleConfig, {
        details: { reason: 'configuration', previewGeneration: r.generation, generation: at.generation },
      });
    }
    e.reserved = true;
    let settled = false;
    const settle = (fn: () => void) => () => {
      if (settled) return;
      settled = true;
      fn();
    };
    return {
      record: r,
      consume: settle(() => this.entries.delete(id)),
      release: settle(() => {
        e.reserved = false;
      }),
      invalidate: settle(() => this.entries.delete(id)),
    };
  }

  /** Outstanding receipts of a session (tests, diagnostics). */
  count(sessionId: string): number {
    this.prune();
    let n = 0;
    for (const e of this.entries.values()) if (e.record.sessionId === sessionId) n++;
    return n;
  }
}

function limit(what: string): HashlineError {
  return new HashlineError('preview_receipt_limit', msg.receiptLimit(what), { retryable: true, details: { limit: what } });
}
