import {
  DEFAULT_REPORT_INTERVAL_SECONDS,
  MAX_LISTED_GAPS,
  silenceThresholdMs,
  type Coverage,
  type CoverageGap,
  type IntervalSource,
} from '@sentinela/contract';

/**
 * Coverage of a device's readings over a period (ADR 0035): how many of the expected readings arrived, the silences
 * longer than the threshold, and the readings the sequence counters say were lost between sensor and gateway.
 * Pure: the history route and the reports load the columns and call it.
 */

export interface CoverageReadings {
  /** Instants (ms), oldest first (sorted here when they are not). */
  times: number[];
  seq: (number | null)[];
  seqModulo: (number | null)[];
}

export interface CoverageOptions {
  from: number;
  /** When the device came into service (registered, or linked to its enterprise): counting never starts before. */
  inService?: { at: number; reason: 'created' | 'linked' } | null;
  /** Already clipped to now by the caller: the future is not a gap. */
  to: number;
  /** Configured, else learned; null when neither is known (the period's own median is used then). */
  intervalSeconds: number | null;
  intervalSource: Exclude<IntervalSource, 'period' | 'default'> | null;
}

export function computeCoverage(readings: CoverageReadings, options: CoverageOptions): Coverage {
  const { times, seq, seqModulo } = inTimeOrder(readings);
  // The time before the device existed, or was its enterprise's, is not missing data: it is not counted at all.
  const clipped = options.inService && options.inService.at > options.from && options.inService.at < options.to ? options.inService : null;
  const from = clipped ? clipped.at : options.from;
  const to = Math.max(from, options.to);

  let intervalSeconds = options.intervalSeconds;
  let source: IntervalSource = options.intervalSource ?? 'default';
  if (intervalSeconds === null || intervalSeconds <= 0) {
    const median = medianIntervalMs(times);
    intervalSeconds = median !== null ? median / 1000 : DEFAULT_REPORT_INTERVAL_SECONDS;
    source = median !== null ? 'period' : 'default';
  }
  const threshold = silenceThresholdMs(intervalSeconds);

  const gaps: CoverageGap[] = [];
  let gapCount = 0;
  let gapTotalMs = 0;
  const gap = (start: number, end: number) => {
    gapCount++;
    gapTotalMs += end - start;
    if (gaps.length < MAX_LISTED_GAPS) gaps.push({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), durationMs: end - start });
  };

  let received = 0;
  let previous = from;
  let last = -Infinity;
  for (const t of times) {
    if (t < from || t > to || t === last) continue;
    received++;
    if (t - previous > threshold) gap(previous, t);
    previous = t;
    last = t;
  }
  if (to - previous > threshold) gap(previous, to);

  const expected = Math.round((to - from) / (intervalSeconds * 1000));
  const percent = expected > 0 ? Math.min(100, Math.round((received / expected) * 1000) / 10) : null;

  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    expectedIntervalSeconds: Math.round(intervalSeconds * 10) / 10,
    intervalSource: source,
    thresholdMs: threshold,
    expected,
    received,
    percent,
    gaps,
    gapCount,
    gapTotalMs,
    lost: lostReadings(times, seq, seqModulo, from, to),
    since: clipped ? { at: new Date(clipped.at).toISOString(), reason: clipped.reason } : null,
  };
}

/**
 * Readings lost between sensor and gateway: over consecutive readings that carry counters of the same modulus m,
 * ((s2 − s1) mod m) − 1 where positive. A step of zero is the same advertisement heard twice. A sensor that reboots
 * restarts its counter, which then moves backwards: a backwards move is taken as the counter wrapping past its top
 * only when the step is small (at most m/8: 8,192 for 16-bit counters), else as a reset; a forward step of more than
 * half the range is a reset too. A reset counts no loss, and counting resumes from the new value. Null when no two
 * readings of the period carry counters.
 */
export function lostReadings(times: readonly number[], seq: readonly (number | null)[], modulo: readonly (number | null)[], from: number, to: number): number | null {
  let lost: number | null = null;
  let prevSeq: number | null = null;
  let prevModulo: number | null = null;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    const s = seq[i] ?? null;
    const m = modulo[i] ?? null;
    if (t < from || t > to || s === null || m === null || m <= 0) continue;
    if (prevSeq !== null && prevModulo === m) {
      lost ??= 0;
      const step = (((s - prevSeq) % m) + m) % m;
      const reset = s < prevSeq ? step > m / 8 : step > m / 2;
      if (step > 0 && !reset) lost += step - 1;
    }
    prevSeq = s;
    prevModulo = m;
  }
  return lost;
}

/** Median of the positive intervals between consecutive readings (ms); null with fewer than two distinct instants. */
export function medianIntervalMs(times: readonly number[]): number | null {
  const intervals: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const dt = times[i]! - times[i - 1]!;
    if (dt > 0) intervals.push(dt);
  }
  if (intervals.length === 0) return null;
  intervals.sort((a, b) => a - b);
  const middle = intervals.length >> 1;
  return intervals.length % 2 === 1 ? intervals[middle]! : (intervals[middle - 1]! + intervals[middle]!) / 2;
}

function inTimeOrder(r: CoverageReadings): CoverageReadings {
  for (let i = 1; i < r.times.length; i++) {
    if (r.times[i]! < r.times[i - 1]!) {
      const order = r.times.map((_, k) => k).sort((a, b) => r.times[a]! - r.times[b]!);
      return { times: order.map((k) => r.times[k]!), seq: order.map((k) => r.seq[k] ?? null), seqModulo: order.map((k) => r.seqModulo[k] ?? null) };
    }
  }
  return r;
}
