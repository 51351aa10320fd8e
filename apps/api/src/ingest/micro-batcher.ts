import { readingsIn, type IngestPart } from './ingest-service';

/**
 * Gathers small submissions (MQTT messages, often one reading each) into batches, so that many messages
 * cost one transaction. A batch is flushed when it holds `maxItems` items or `maxWaitMs` after its first
 * item; while `maxConcurrent` flushes are running, new items wait, so batches grow under load instead of
 * transactions piling up. Each submission's promise settles when the flush that stored it settles:
 * that is when an MQTT message may be acknowledged. A flush may settle its items one by one by returning
 * one outcome per item (undefined: stored; anything else: that item's error).
 */
export interface MicroBatcherOptions {
  maxItems: number;
  maxWaitMs: number;
  maxConcurrent: number;
}

interface Waiting<T> {
  item: T;
  /** What counts toward maxItems (an MQTT message counts its readings). */
  size: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class MicroBatcher<T> {
  private queue: Waiting<T>[] = [];
  private queuedItems = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly flush: (items: T[]) => Promise<void | readonly unknown[]>,
    private readonly options: MicroBatcherOptions,
  ) {}

  /** Resolves once the items are stored; rejects if their batch failed (nothing of it was stored). */
  submit(item: T, size = 1): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, size, resolve, reject });
      this.queuedItems += size;
      if (this.queuedItems >= this.options.maxItems) this.startFlushes();
      else this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.startFlushes();
      }, this.options.maxWaitMs);
    });
  }

  /** Resolves when everything submitted so far has been flushed. */
  async drain(): Promise<void> {
    this.startFlushes();
    while (this.running > 0 || this.queue.length > 0) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
      this.startFlushes();
    }
  }

  private startFlushes(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.queue.length > 0 && this.running < this.options.maxConcurrent) {
      // A submission is never split: a message's readings are stored, or not, together.
      const batch: Waiting<T>[] = [];
      let count = 0;
      while (this.queue.length > 0 && (count === 0 || count + this.queue[0]!.size <= this.options.maxItems)) {
        const next = this.queue.shift()!;
        batch.push(next);
        count += next.size;
      }
      this.queuedItems -= count;
      this.running++;
      void this.run(batch);
    }
  }

  private async run(batch: Waiting<T>[]): Promise<void> {
    try {
      const outcomes = await this.flush(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const err = outcomes ? outcomes[i] : undefined;
        if (err === undefined) w.resolve();
        else w.reject(err);
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      this.running--;
      // Whatever queued up during this flush goes now: under load, batches are as large as the wait allowed.
      if (this.queue.length > 0) this.startFlushes();
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }
}

/**
 * MQTT intake: messages go to one of a few micro-batchers by their topic's device, each storing one batch at
 * a time. Two batches stored at once then never hold the same device's row lock, so they run side by side
 * instead of queueing behind each other's commit; and while a shard is busy, its next batch grows (up to
 * `maxItems` readings), which is what keeps the per-reading cost down under load. A few milliseconds of
 * waiting turn thousands of one-reading messages per second into a few dozen transactions.
 */
export class ShardedBatchers {
  private readonly shards: MicroBatcher<IngestPart>[];

  constructor(
    flush: (parts: IngestPart[]) => Promise<void | readonly unknown[]>,
    options: { shards: number; maxItems: number; maxWaitMs: number } = { shards: 2, maxItems: 4000, maxWaitMs: 2 },
  ) {
    this.shards = Array.from({ length: options.shards }, () => new MicroBatcher(flush, { maxItems: options.maxItems, maxWaitMs: options.maxWaitMs, maxConcurrent: 1 }));
  }

  submit(part: IngestPart): Promise<void> {
    const key = part.topicMac ?? '';
    const shard = key.length === 0 ? 0 : (key.charCodeAt(key.length - 1) + key.charCodeAt(key.length - 2) * 31) % this.shards.length;
    return this.shards[shard]!.submit(part, Math.max(1, readingsIn(part)));
  }

  async drain(): Promise<void> {
    await Promise.all(this.shards.map((s) => s.drain()));
  }
}
