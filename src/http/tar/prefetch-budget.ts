// Bytes of file content a process holds in memory ahead of sending it (the tar packer reads small
// files during its pre-walk): a process-wide budget, and a hold per request that takes from it
// within its own limit and gives back what it took as the content is sent, or all of it when the
// request ends, however it ends.

export class PrefetchBudget {
  constructor(private left: number) {}

  /** Bytes not held by any request now. */
  get available(): number {
    return this.left;
  }

  /** A hold for one request, taking at most `limit` bytes of this budget. */
  hold(limit: number): PrefetchHold {
    return new PrefetchHold(limit, this);
  }

  /** @internal */
  take(n: number): boolean {
    if (n > this.left) return false;
    this.left -= n;
    return true;
  }

  /** @internal */
  give(n: number): void {
    this.left += n;
  }
}

export class PrefetchHold {
  private held = 0;
  private taken = 0;

  constructor(
    private readonly limit: number,
    private readonly budget?: PrefetchBudget,
  ) {}

  /** Bytes held now. */
  get holding(): number {
    return this.held;
  }

  /** Takes `n` bytes if both this request's limit and the process's budget allow; false otherwise. */
  take(n: number): boolean {
    if (this.taken + n > this.limit) return false;
    if (this.budget && !this.budget.take(n)) return false;
    this.taken += n;
    this.held += n;
    return true;
  }

  /** Gives back `n` bytes whose content was sent. */
  give(n: number): void {
    const k = Math.min(n, this.held);
    this.held -= k;
    this.budget?.give(k);
  }

  /** Gives back everything still held (the request ended). Idempotent. */
  release(): void {
    this.give(this.held);
  }
}

/** Content the tar packer may hold ahead of sending, for all requests of this process together. */
export const TAR_PREFETCH_BYTES = 64 * 1024 * 1024;
/** ... and for one request. */
export const TAR_PREFETCH_BYTES_PER_REQUEST = 32 * 1024 * 1024;

export const tarPrefetch = new PrefetchBudget(TAR_PREFETCH_BYTES);
