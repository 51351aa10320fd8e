/**
 * Counts attempts per key in fixed windows (all keys start a new window together), for the guessing limits
 * that @fastify/rate-limit cannot see: tracking codes tried over Socket.IO. Memory holds one window's keys.
 */
export class FixedWindowLimiter {
  private windowStart = -Infinity;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts one attempt; false once the key went over the limit in this window. */
  take(key: string): boolean {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.counts.clear();
      this.windowStart = now;
    }
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    return n <= this.max;
  }
}
