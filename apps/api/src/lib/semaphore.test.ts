import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the others in arrival order, and frees slots on failure', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      gate.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (i === 1) throw new Error('falhou');
        return i;
      }),
    );
    // Settled at once, so the failing task's rejection is handled when it happens.
    const settled = Promise.allSettled(tasks);
    for (let done = 0; done < 5; done++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases.shift()!();
    }
    const results = await settled;
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  });
});
