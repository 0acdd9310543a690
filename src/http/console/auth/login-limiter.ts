// Failed console logins are rate-limited a little: each address may fail 5 times a minute (and all
// addresses together 60 times a minute, against a spread attack); past that, every login attempt
// from it is refused with 429 until its window has passed, a right token included, so guessing
// cannot go on at speed. A success does not reset the count (it cannot speed guessing either).

export interface LimiterOptions {
  perAddress: number;
  overall: number;
  windowMs: number;
}

export const LOGIN_LIMITS: LimiterOptions = { perAddress: 5, overall: 60, windowMs: 60_000 };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private all: number[] = [];

  constructor(
    private readonly options: LimiterOptions = LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(list: readonly number[], at: number): number[] {
    return list.filter((t) => at - t < this.options.windowMs);
  }

  /** Seconds until `address` may try again, or 0 when it may now. */
  retryAfter(address: string): number {
    const at = this.now();
    this.all = this.recent(this.all, at);
    const mine = this.recent(this.failures.get(address) ?? [], at);
    if (mine.length === 0) this.failures.delete(address);
    else this.failures.set(address, mine);
    const wait = (list: number[], max: number) => (list.length >= max ? list[list.length - max]! + this.options.windowMs - at : 0);
    const ms = Math.max(wait(mine, this.options.perAddress), wait(this.all, this.options.overall));
    return ms > 0 ? Math.ceil(ms / 1000) : 0;
  }

  fail(address: string): void {
    const at = this.now();
    this.all.push(at);
    const mine = this.failures.get(address) ?? [];
    mine.push(at);
    this.failures.set(address, mine);
    // bounded memory: the map forgets the quietest addresses first
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
  }
}
