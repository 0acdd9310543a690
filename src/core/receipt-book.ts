// Preview receipts: an opaque, one-use token bound to exactly the candidate a preview produced
// (paths, source hashes, candidate hashes, configuration generation, options). A commit reserves
// the receipt for the whole batch; success consumes it, a confirmed no-change failure releases it
// for a retry, anything uncertain invalidates it. Concurrent replay is refused.

import { createHash, randomBytes } from 'node:crypto';
import { HashlineError } from './errors.js';

export interface ReceiptBinding {
  readonly tool: string;
  readonly paths: readonly string[];
  readonly sourceSha256: readonly string[];
  readonly candidateSha256: readonly string[];
  /** Configuration generation at preview time: a configuration change invalidates receipts. */
  readonly generation: number;
  /** Anything else the candidate depends on (strategy options, SQL policy ...), canonical JSON. */
  readonly extra?: string;
}

export interface Reservation {
  /** The batch committed: the receipt is spent. */
  consume(): void;
  /** The batch failed and nothing changed: the receipt may be used again. */
  release(): void;
  /** The outcome is uncertain: a new preview is required. */
  invalidate(): void;
}

interface Entry {
  digest: string;
  expires: number;
  state: 'ready' | 'reserved';
}

export const RECEIPT_TTL_MS = 10 * 60 * 1000;
export const MAX_RECEIPTS = 256;

function digestOf(b: ReceiptBinding): string {
  const canonical = JSON.stringify([b.tool, [...b.paths], [...b.sourceSha256], [...b.candidateSha256], b.generation, b.extra ?? '']);
  return createHash('sha256').update(canonical).digest('hex');
}

export class ReceiptBook {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.ttlMs = options.ttlMs ?? RECEIPT_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  issue(binding: ReceiptBinding): string {
    const id = `pr_${randomBytes(18).toString('base64url')}`;
    this.entries.set(id, { digest: digestOf(binding), expires: this.now() + this.ttlMs, state: 'ready' });
    while (this.entries.size > MAX_RECEIPTS) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return id;
  }

  reserve(receipt: string, binding: ReceiptBinding): Reservation {
    const e = this.entries.get(receipt);
    if (!e) throw new HashlineError('preview_receipt_invalid', 'unknown or already used preview receipt; run the preview again');
    if (this.now() > e.expires) {
      this.entries.delete(receipt);
      throw new HashlineError('preview_receipt_expired', 'the preview receipt expired; run the preview again');
    }
    if (e.state === 'reserved') {
      throw new HashlineError('preview_receipt_in_use', 'this preview receipt is being committed by another call');
    }
    if (e.digest !== digestOf(binding)) {
      this.entries.delete(receipt);
      throw new HashlineError('preview_receipt_invalid', 'the files, hashes or configuration changed since the preview; run the preview again');
    }
    e.state = 'reserved';
    let settled = false;
    const settle = (fn: () => void) => () => {
      if (settled) return;
      settled = true;
      fn();
    };
    return {
      consume: settle(() => this.entries.delete(receipt)),
      release: settle(() => {
        e.state = 'ready';
      }),
      invalidate: settle(() => this.entries.delete(receipt)),
    };
  }
}
