import { describe, expect, it } from 'vitest';
import { MicroBatcher } from './micro-batcher';

describe('MicroBatcher', () => {
  it('stores submissions in batches of at most maxItems, never splitting one', async () => {
    const flushed: number[][] = [];
    const batcher = new MicroBatcher<number>(async (items) => void flushed.push(items), { maxItems: 5, maxWaitMs: 1, maxConcurrent: 1 });
    const done = [1, 2, 3, 4, 5, 6, 7].map((n) => batcher.submit(n, n === 6 ? 4 : 1));
    await Promise.all(done);
    expect(flushed.flat()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(flushed[0]).toEqual([1, 2, 3, 4, 5]);
    for (const batch of flushed.slice(1)) expect(batch.reduce((n, item) => n + (item === 6 ? 4 : 1), 0)).toBeLessThanOrEqual(5);
  });

  it('rejects exactly the submissions of a failed batch', async () => {
    let calls = 0;
    const batcher = new MicroBatcher<string>(
      async () => {
        calls++;
        if (calls === 1) throw new Error('database down');
      },
      { maxItems: 2, maxWaitMs: 1, maxConcurrent: 1 },
    );
    const results = await Promise.allSettled(['a', 'b', 'c'].map((s) => batcher.submit(s)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });

  it('settles each submission on its own when the flush returns one outcome per item', async () => {
    const batcher = new MicroBatcher<string>(
      async (items) => items.map((item) => (item === 'poison' ? new Error('not stored') : undefined)),
      { maxItems: 10, maxWaitMs: 1, maxConcurrent: 1 },
    );
    const results = await Promise.allSettled(['a', 'poison', 'b'].map((s) => batcher.submit(s)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('drain waits for everything submitted', async () => {
    const stored: number[] = [];
    const batcher = new MicroBatcher<number>(async (items) => void stored.push(...items), { maxItems: 100, maxWaitMs: 50, maxConcurrent: 2 });
    for (let i = 0; i < 10; i++) void batcher.submit(i);
    await batcher.drain();
    expect(stored).toHaveLength(10);
  });
});
