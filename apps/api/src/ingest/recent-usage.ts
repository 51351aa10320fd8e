/**
 * How much of the recent ingestion each gateway used, decayed exponentially (half-life 10 s), for load shedding to
 * tell who made the process busy (issue 21): the heaviest gateways are those that, heaviest first, together account for
 * at least half of the recent total. One flooding gateway among quiet ones is alone in that set; many gateways of the
 * same size are half of them; a quiet gateway is never in it while a heavier one is active. Real (monotonic) time,
 * not the app's clock: this is about what the process went through, not about the readings' business time.
 */
export class RecentUsage {
  private readonly usage = new Map<string, { value: number; atMs: number }>();
  private heavy = new Set<string>();
  private heavyAtMs = -Infinity;

  constructor(
    private readonly halfLifeMs = 10_000,
    /** How long the heaviest set is kept before it is worked out again. */
    private readonly recomputeMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  add(key: string, amount: number): void {
    const nowMs = this.now();
    const entry = this.usage.get(key);
    if (!entry) this.usage.set(key, { value: amount, atMs: nowMs });
    else {
      entry.value = this.decayed(entry, nowMs) + amount;
      entry.atMs = nowMs;
    }
  }

  /** Whether `key` is among the gateways that used most of the recent capacity. */
  isHeavy(key: string): boolean {
    const nowMs = this.now();
    if (nowMs - this.heavyAtMs >= this.recomputeMs) this.recompute(nowMs);
    return this.heavy.has(key);
  }

  private recompute(nowMs: number): void {
    const values: [string, number][] = [];
    let total = 0;
    for (const [key, entry] of this.usage) {
      const value = this.decayed(entry, nowMs);
      // Gone quiet (under a reading's worth): forgotten.
      if (value < 1) {
        this.usage.delete(key);
        continue;
      }
      values.push([key, value]);
      total += value;
    }
    values.sort((a, b) => b[1] - a[1]);
    this.heavy = new Set();
    let sum = 0;
    for (const [key, value] of values) {
      if (sum >= total / 2) break;
      this.heavy.add(key);
      sum += value;
    }
    this.heavyAtMs = nowMs;
  }

  private decayed(entry: { value: number; atMs: number }, nowMs: number): number {
    const elapsed = Math.max(0, nowMs - entry.atMs);
    return entry.value * Math.pow(0.5, elapsed / this.halfLifeMs);
  }
}
