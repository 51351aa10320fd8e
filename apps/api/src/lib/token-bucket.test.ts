import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('starts full, refuses what it does not hold and says when it will, refills at its rate up to its capacity', () => {
    const bucket = new TokenBucket(100, 10, 0);
    expect(bucket.take(100, 0)).toBe(0);
    expect(bucket.take(1, 0)).toBe(100);
    expect(bucket.take(25, 1000)).toBe(1500);
    expect(bucket.take(10, 1000)).toBe(0);
    // Never above the capacity, however long it idles.
    expect(bucket.full(3_600_000)).toBe(true);
    expect(bucket.take(101, 3_600_000)).toBe(Infinity);
    expect(bucket.take(100, 3_600_000)).toBe(0);
  });

  it('reserves into debt within the wait allowed, and every later spender waits for the debt first', () => {
    const bucket = new TokenBucket(100, 10, 0);
    expect(bucket.reserve(100, 0, 2000)).toBe(0);
    expect(bucket.reserve(15, 0, 2000)).toBe(1500);
    // 15 in debt: 10 more would take 2.5 s, beyond 2 s: not reserved, nothing spent.
    expect(bucket.reserve(10, 0, 2000)).toBe(-1);
    expect(bucket.take(1, 0)).toBe(1600);
    expect(bucket.take(5, 2000)).toBe(0);
  });
});
