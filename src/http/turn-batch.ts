// Items gathered during one turn of the event loop, handed over together in that turn's check
// phase (setImmediate): everything added before the hand-over is in it. The fast GET path queues
// its requests here so that one look at the configuration file serves every request read from the
// sockets in that turn, and that look is taken after each of them arrived.

/** A queue that calls `flush` once per turn with everything added since the last call. */
export class TurnBatch<T> {
  private items: T[] = [];

  constructor(private readonly flush: (items: readonly T[]) => void) {}

  /** How many items wait for the hand-over. */
  get size(): number {
    return this.items.length;
  }

  add(item: T): void {
    if (this.items.length === 0) setImmediate(() => this.handOver());
    this.items.push(item);
  }

  private handOver(): void {
    const items = this.items;
    this.items = [];
    this.flush(items);
  }
}
