/**
 * Counts attempts per key in fixed windows (all keys start a new window together), for the limits that
 * @fastify/rate-limit cannot see or key: tracking codes tried over Socket.IO, requests per signed-in user, failed
 * logins per address. Memory holds one window's keys.
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
    const n = this.count(key) + 1;
    this.counts.set(key, n);
    return n <= this.max;
  }

  /** Whether the key already used up this window (counts nothing: for limits on failures, counted with `take`). */
  exhausted(key: string): boolean {
    return this.count(key) >= this.max;
  }

  /** Whole seconds until the current window ends (at least 1), for a Retry-After header. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - this.now()) / 1000));
  }

  private count(key: string): number {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.counts.clear();
      this.windowStart = now;
    }
    return this.counts.get(key) ?? 0;
  }
}
