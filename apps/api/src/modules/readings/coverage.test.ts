import { describe, expect, it } from 'vitest';
import { computeCoverage, lostReadings } from './coverage';
import { expectedIntervalOf, learnInterval } from './expected-interval';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const readings = (times: number[], seq: (number | null)[] = times.map(() => null), modulo = 65_536) => ({
  times,
  seq,
  seqModulo: seq.map((s) => (s === null ? null : modulo)),
});

describe('computeCoverage (ADR 0035)', () => {
  it('without any interval known, judges by the median spacing of the period', () => {
    const times = [0, 1, 2, 3, 10, 11].map((k) => T0 + k * MIN);
    const c = computeCoverage(readings(times), { from: T0, to: T0 + 12 * MIN, intervalSeconds: null, intervalSource: null });
    expect(c).toMatchObject({ intervalSource: 'period', expectedIntervalSeconds: 60, thresholdMs: 3 * MIN, expected: 12, received: 6, percent: 50, gapCount: 1 });
    expect(c.gaps[0]).toMatchObject({ start: new Date(T0 + 3 * MIN).toISOString(), durationMs: 7 * MIN });
  });

  it('falls back to the default interval with fewer than two readings', () => {
    const c = computeCoverage(readings([]), { from: T0, to: T0 + 60 * MIN, intervalSeconds: null, intervalSource: null });
    expect(c).toMatchObject({ intervalSource: 'default', expectedIntervalSeconds: 300, expected: 12, received: 0, percent: 0, gapCount: 1, gapTotalMs: 60 * MIN, lost: null });
  });

  it('has no percentage for a period shorter than half an interval, and never more than 100 %', () => {
    expect(computeCoverage(readings([T0]), { from: T0, to: T0 + 20_000, intervalSeconds: 60, intervalSource: 'configured' }).percent).toBeNull();
    const dense = Array.from({ length: 30 }, (_, k) => T0 + k * 20_000);
    expect(computeCoverage(readings(dense), { from: T0, to: T0 + 10 * MIN, intervalSeconds: 60, intervalSource: 'configured' }).percent).toBe(100);
  });

  it('gives the same answer for readings out of order, and ignores readings outside the period and repeats', () => {
    const times = [5, 1, 3, 2, 4, 40, -3].map((k) => T0 + k * MIN);
    const sorted = computeCoverage(readings([...times].sort((a, b) => a - b)), { from: T0, to: T0 + 6 * MIN, intervalSeconds: 60, intervalSource: 'configured' });
    const shuffled = computeCoverage(readings([...times, T0 + 2 * MIN]), { from: T0, to: T0 + 6 * MIN, intervalSeconds: 60, intervalSource: 'configured' });
    expect(shuffled).toEqual(sorted);
    expect(sorted).toMatchObject({ received: 5, gapCount: 0 });
  });

  it('counts from when the device came into service, not from a period start before it (issue 26)', () => {
    // A beacon registered at 12:00 reporting every minute, looked at over the last two days.
    const times = Array.from({ length: 60 }, (_, k) => T0 + k * MIN);
    const options = { from: T0 - 2 * 24 * 60 * MIN, to: T0 + 60 * MIN, intervalSeconds: 60, intervalSource: 'configured' as const };
    expect(computeCoverage(readings(times), options)).toMatchObject({ percent: 2, gapCount: 1 });
    const since = computeCoverage(readings(times), { ...options, inService: { at: T0, reason: 'created' } });
    expect(since).toMatchObject({ from: new Date(T0).toISOString(), expected: 60, received: 60, percent: 100, gapCount: 0, since: { at: new Date(T0).toISOString(), reason: 'created' } });
    // Service that began before the period, or after it ended, changes nothing; without it `since` is null.
    expect(computeCoverage(readings(times), { ...options, inService: { at: options.from - MIN, reason: 'linked' } })).toMatchObject({ since: null, percent: 2 });
    expect(computeCoverage(readings(times), options).since).toBeNull();
  });

  it('keeps the listed gaps bounded, counting them all', () => {
    const times = Array.from({ length: 1200 }, (_, k) => T0 + k * 10 * MIN);
    const c = computeCoverage(readings(times), { from: T0, to: times.at(-1)!, intervalSeconds: 60, intervalSource: 'configured' });
    expect(c.gapCount).toBe(1199);
    expect(c.gaps).toHaveLength(500);
  });
});

describe('lostReadings', () => {
  const t = (n: number) => Array.from({ length: n }, (_, k) => T0 + k * MIN);
  const lost = (seq: (number | null)[], modulo: (number | null)[] = seq.map(() => 65_536)) => lostReadings(t(seq.length), seq, modulo, T0, T0 + seq.length * MIN);

  it('sums the skipped counter values, across a wrap', () => {
    expect(lost([10, 11, 14, 15])).toBe(2);
    expect(lost([65_534, 65_535, 0, 3])).toBe(2);
    expect(lost([250, 255, 1], [256, 256, 256])).toBe(5);
  });

  it('takes a jump of more than half the counter as a reset, and a repeat as no loss', () => {
    expect(lost([40_000, 40_001, 7, 8])).toBe(0);
    expect(lost([5, 5, 6])).toBe(0);
  });

  it('pairs only readings with counters of the same modulo; null without any pair', () => {
    expect(lost([1, null, 3])).toBe(1);
    expect(lost([1, 5], [65_536, 256])).toBeNull();
    expect(lost([null, 7])).toBeNull();
  });
});

describe('learnInterval', () => {
  it('starts at the first interval and follows shorter ones quickly', () => {
    expect(learnInterval(null, null, [T0])).toBeNull();
    expect(learnInterval(null, T0, [T0 + 300_000])).toBe(300);
    const times = Array.from({ length: 8 }, (_, k) => T0 + 300_000 + (k + 1) * 60_000);
    expect(learnInterval(300, T0 + 300_000, times)!).toBeLessThan(62);
  });

  it('is only nudged by a silence, and still reaches a longer real interval', () => {
    expect(learnInterval(60, T0, [T0 + 86_400_000])).toBeCloseTo(67.5);
    let learned = 60;
    let previous = T0;
    for (let k = 0; k < 40; k++) {
      learned = learnInterval(learned, previous, [previous + 600_000])!;
      previous += 600_000;
    }
    expect(learned).toBeGreaterThan(500);
    expect(learned).toBeLessThanOrEqual(600);
  });

  it('ignores repeated or older instants', () => {
    expect(learnInterval(60, T0, [T0, T0 - 1000])).toBe(60);
  });
});

describe('expectedIntervalOf', () => {
  it('prefers the configured interval, else the learned one rounded, else null', () => {
    expect(expectedIntervalOf(120, 33.3)).toBe(120);
    expect(expectedIntervalOf(null, 33.6)).toBe(34);
    expect(expectedIntervalOf(null, 0.2)).toBe(1);
    expect(expectedIntervalOf(null, null)).toBeNull();
  });
});
