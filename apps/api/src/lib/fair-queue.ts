/**
 * Work of many tenants, run at most `concurrency` items at a time and taking turns between tenants: each tenant's
 * items wait in its own line, run one at a time and in order, and the lines are served round-robin. One tenant's
 * burst therefore waits behind itself, never in front of another tenant's single item. A line holds at most
 * `perKeyLimit` items; what does not fit goes to `overflow` (a slower path that still does the work) instead of
 * growing memory without bound.
 */
export class FairQueue<T> {
  /** Lines with items waiting, in turn order (a Map keeps insertion order). A line that is running is not here. */
  private readonly waiting = new Map<string, T[]>();
  /** Lines whose item is running; their next items wait until it ends (one at a time per tenant keeps order). */
  private readonly running = new Map<string, T[]>();
  private active = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: {
      concurrency: number;
      perKeyLimit: number;
      run(item: T): Promise<void>;
      /** An item that did not fit its tenant's line. */
      overflow(item: T): void;
      /** `run` threw: the item's work is left to the caller's slower path. */
      failed(item: T, error: unknown): void;
    },
  ) {}

  push(key: string, item: T): void {
    const line = this.waiting.get(key) ?? this.running.get(key);
    if (line && line.length >= this.options.perKeyLimit) {
      this.options.overflow(item);
      return;
    }
    if (line) line.push(item);
    else this.waiting.set(key, [item]);
    this.pump();
  }

  /** Items waiting or running. */
  get size(): number {
    let n = this.active;
    for (const line of this.waiting.values()) n += line.length;
    for (const line of this.running.values()) n += line.length;
    return n;
  }

  /** Resolves once nothing waits or runs (a shutdown lets the started work finish). */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.options.concurrency) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [key, line] = next.value;
      this.waiting.delete(key);
      const item = line.shift() as T;
      this.running.set(key, line);
      this.active += 1;
      void this.options
        .run(item)
        .catch((error: unknown) => this.options.failed(item, error))
        .finally(() => {
          this.active -= 1;
          this.running.delete(key);
          // Back of the turn order: every other tenant with work goes before this one's next item.
          if (line.length > 0) this.waiting.set(key, line);
          this.pump();
          if (this.size === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
    }
  }
}
