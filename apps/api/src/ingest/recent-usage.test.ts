import { describe, expect, it } from 'vitest';
import { RecentUsage } from './recent-usage';

describe('RecentUsage', () => {
  it('names the gateways that together used at least half of the recent total, heaviest first', () => {
    let now = 0;
    const usage = new RecentUsage(10_000, 0, () => now);
    usage.add('flood', 9000);
    for (const quiet of ['a', 'b', 'c']) usage.add(quiet, 100);
    expect(['flood', 'a', 'b', 'c'].filter((k) => usage.isHeavy(k))).toEqual(['flood']);
    // Gateways of the same size: half of them.
    const even = new RecentUsage(10_000, 0, () => now);
    for (const k of ['a', 'b', 'c', 'd']) even.add(k, 100);
    expect(['a', 'b', 'c', 'd'].filter((k) => even.isHeavy(k))).toHaveLength(2);
    // The flood stops; a minute later the others' newer use outweighs its decayed one.
    now = 60_000;
    usage.add('a', 500);
    expect(usage.isHeavy('flood')).toBe(false);
    expect(usage.isHeavy('a')).toBe(true);
  });
});
