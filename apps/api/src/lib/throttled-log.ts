interface Logger {
  warn(obj: unknown, msg: string): void;
}

/**
 * A warning that may repeat thousands of times a second (a connection flood, a burst of failed TLS handshakes): the
 * first of each kind is logged at once, then at most one line per `intervalMs` with how many were left out since, so
 * the log neither drowns nor costs the process what the flood does.
 */
export class ThrottledLog {
  private readonly kinds = new Map<string, { lastMs: number; suppressed: number }>();

  constructor(
    private readonly log: Logger,
    private readonly intervalMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(kind: string, details: Record<string, unknown>, msg: string): void {
    const nowMs = this.now();
    const seen = this.kinds.get(kind);
    if (seen && nowMs - seen.lastMs < this.intervalMs) {
      seen.suppressed++;
      return;
    }
    const suppressed = seen?.suppressed ?? 0;
    this.kinds.set(kind, { lastMs: nowMs, suppressed: 0 });
    try {
      this.log.warn(suppressed > 0 ? { ...details, suppressed } : details, msg);
    } catch {
      // A log that cannot be written (a full disk, a closed stream) must not take the caller down with it.
    }
  }
}
