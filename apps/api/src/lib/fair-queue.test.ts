import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

/** A queue whose items run until the test releases them, recording the order they started in. */
function gatedQueue(options: { concurrency: number; perKeyLimit: number }) {
  const started: string[] = [];
  const overflowed: string[] = [];
  const failed: string[] = [];
  const releases = new Map<string, (fail?: boolean) => void>();
  const queue = new FairQueue<string>({
    ...options,
    run: (item) =>
      new Promise<void>((resolve, reject) => {
        started.push(item);
        releases.set(item, (fail) => (fail ? reject(new Error(item)) : resolve()));
      }),
    overflow: (item) => overflowed.push(item),
    failed: (item) => failed.push(item),
  });
  const release = async (item: string, fail = false) => {
    const done = releases.get(item);
    if (!done) throw new Error(`${item} is not running`);
    done(fail);
    // Let the run's settlement and the next start happen.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { queue, started, overflowed, failed, release };
}

describe('FairQueue', () => {
  it("serves tenants in turns: one tenant's burst does not hold another's single item", async () => {
    const { queue, started, release } = gatedQueue({ concurrency: 1, perKeyLimit: 100 });
    for (let i = 1; i <= 5; i++) queue.push('flood', `flood-${i}`);
    queue.push('quiet', 'quiet-1');
    expect(started).toEqual(['flood-1']);
    await release('flood-1');
    // The quiet tenant goes next, before the flood's second item.
    expect(started).toEqual(['flood-1', 'quiet-1']);
    await release('quiet-1');
    await release('flood-2');
    expect(started).toEqual(['flood-1', 'quiet-1', 'flood-2', 'flood-3']);
  });

  it("runs one item per tenant at a time, in order, while other tenants use the free slots", async () => {
    const { queue, started, release } = gatedQueue({ concurrency: 3, perKeyLimit: 100 });
    queue.push('a', 'a-1');
    queue.push('a', 'a-2');
    queue.push('b', 'b-1');
    // Two slots in use: a-2 waits for a-1 although a third slot is free.
    expect(started).toEqual(['a-1', 'b-1']);
    expect(queue.size).toBe(3);
    await release('b-1');
    expect(started).toEqual(['a-1', 'b-1']);
    await release('a-1');
    expect(started).toEqual(['a-1', 'b-1', 'a-2']);
  });

  it('hands what does not fit a tenant\'s line to the overflow, and a failed run to `failed`', async () => {
    const { queue, started, overflowed, failed, release } = gatedQueue({ concurrency: 1, perKeyLimit: 2 });
    queue.push('a', 'a-1');
    queue.push('a', 'a-2');
    queue.push('a', 'a-3');
    queue.push('a', 'a-4');
    queue.push('b', 'b-1');
    // a-1 runs, a-2 and a-3 wait (the line holds two), a-4 overflows; another tenant's line is its own.
    expect(overflowed).toEqual(['a-4']);
    await release('a-1', true);
    expect(failed).toEqual(['a-1']);
    expect(started).toEqual(['a-1', 'b-1']);
  });

  it('is idle once nothing waits or runs', async () => {
    const { queue, release } = gatedQueue({ concurrency: 2, perKeyLimit: 10 });
    await queue.idle();
    queue.push('a', 'a-1');
    queue.push('a', 'a-2');
    let idle = false;
    const waited = queue.idle().then(() => (idle = true));
    await release('a-1');
    expect(idle).toBe(false);
    await release('a-2');
    await waited;
    expect(idle).toBe(true);
    expect(queue.size).toBe(0);
  });
});
