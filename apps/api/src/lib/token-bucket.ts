/**
 * A token bucket: `ratePerSecond` tokens flow in, up to `capacity`; spending takes them out. It starts full, so an
 * idle client may burst up to the capacity, then goes at the rate.
 *
 * Two ways to spend: `take` spends only what is there (a request refused now is told when to come back), and
 * `reserve` may run into debt for up to `maxWaitMs` of refill (the caller waits that long before going on: a
 * connection paced rather than refused). Debt is repaid by the refill before anything else is spent, so every
 * spender of the bucket — across protocols — shares one rate.
 */
export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    readonly capacity: number,
    readonly ratePerSecond: number,
    nowMs: number,
  ) {
    this.tokens = capacity;
    this.updatedMs = nowMs;
  }

  /** Spends `n` if the bucket holds them: 0. Otherwise spends nothing and returns the ms until it will hold them. */
  take(n: number, nowMs: number): number {
    this.refill(nowMs);
    if (this.tokens >= n) {
      this.tokens -= n;
      return 0;
    }
    return this.msUntil(n);
  }

  /**
   * Spends `n` now, into debt if need be, when the bucket will hold them within `maxWaitMs`: returns how long the
   * caller is to wait (0: at once). Beyond that wait: spends nothing and returns -1.
   */
  reserve(n: number, nowMs: number, maxWaitMs: number): number {
    this.refill(nowMs);
    if (this.tokens >= n) {
      this.tokens -= n;
      return 0;
    }
    const wait = this.msUntil(n);
    if (wait > maxWaitMs) return -1;
    this.tokens -= n;
    return wait;
  }

  /** Whether the bucket is full (an idle client: its entry may be forgotten). */
  full(nowMs: number): boolean {
    this.refill(nowMs);
    return this.tokens >= this.capacity;
  }

  private msUntil(n: number): number {
    // More than the bucket can ever hold: never (a caller keeps its batches within the capacity).
    if (n > this.capacity || this.ratePerSecond <= 0) return Infinity;
    return Math.ceil(((n - this.tokens) / this.ratePerSecond) * 1000);
  }

  private refill(nowMs: number): void {
    const elapsed = nowMs - this.updatedMs;
    if (elapsed > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + (elapsed / 1000) * this.ratePerSecond);
      this.updatedMs = nowMs;
    }
  }
}
