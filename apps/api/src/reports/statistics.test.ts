import { describe, expect, it } from 'vitest';
import { computeStatistics, heldMs, meanKineticTemperature, medianIntervalMs, rangeStatus } from './statistics';
import type { ReportLimits, ReportReading } from './types';

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const MIN = 60_000;

/** Readings at the given minutes after T0 with the given temperatures (and optional humidities). */
function series(points: Array<[minute: number, temperature: number | null, humidity?: number | null]>): ReportReading[] {
  return points.map(([minute, temperature, humidity = null]) => ({
    ts: new Date(T0 + minute * MIN),
    temperature,
    humidity,
    battery: null,
    lat: null,
    lng: null,
  }));
}

const at = (minute: number) => new Date(T0 + minute * MIN);
const limits = (t: [number | null, number | null], h: [number | null, number | null] = [null, null]): ReportLimits => ({
  temperature: { min: t[0], max: t[1] },
  humidity: { min: h[0], max: h[1] },
});

describe('rangeStatus', () => {
  it('treats a value equal to a limit as within range', () => {
    expect(rangeStatus(8, { min: 2, max: 8 })).toBeNull();
    expect(rangeStatus(2, { min: 2, max: 8 })).toBeNull();
    expect(rangeStatus(8.01, { min: 2, max: 8 })).toBe('above');
    expect(rangeStatus(1.99, { min: 2, max: 8 })).toBe('below');
    expect(rangeStatus(100, { min: null, max: null })).toBeNull();
    expect(rangeStatus(null, { min: 2, max: 8 })).toBeNull();
  });
});

describe('meanKineticTemperature', () => {
  it('is the temperature itself when it never changes', () => {
    expect(meanKineticTemperature([5, 5, 5])).toBeCloseTo(5, 10);
  });

  it('matches the USP <1160> formula worked by hand', () => {
    // exp(-10000/273.15) = 1.2585e-16, exp(-10000/283.15) = 4.5853e-16; mean 2.9219e-16; ln = -35.7691;
    // 10000 / 35.7691 = 279.5765 K = 6.4327 °C: above the arithmetic mean (5 °C), as MKT always is.
    expect(meanKineticTemperature([0, 10])).toBeCloseTo(6.4327, 3);
    // Three months at 25 °C and one at 40 °C (the classic storage example): 31.275 °C.
    expect(meanKineticTemperature([25, 25, 25, 40])).toBeCloseTo(31.275, 3);
  });

  it('stays exact at cryogenic temperatures and ignores impossible ones', () => {
    expect(meanKineticTemperature([-196, -20])).toBeCloseTo(-24.3654, 3);
    expect(meanKineticTemperature([-300, 5])).toBeCloseTo(5, 10);
    expect(meanKineticTemperature([])).toBeNull();
  });
});

describe('medianIntervalMs and heldMs', () => {
  it('takes the median of the positive intervals, averaging the middle two', () => {
    expect(medianIntervalMs(series([[0, 1], [1, 1], [2, 1], [10, 1], [11, 1]]))).toBe(MIN); // 1, 1, 1, 8 min
    expect(medianIntervalMs(series([[0, 1], [1, 1], [3, 1]]))).toBe(1.5 * MIN); // 1, 2 min
    expect(medianIntervalMs(series([[0, 1], [0, 1]]))).toBeNull();
  });

  it('caps a silence longer than three median intervals at one', () => {
    expect(heldMs(3 * MIN, MIN)).toBe(3 * MIN);
    expect(heldMs(3 * MIN + 1, MIN)).toBe(MIN);
    expect(heldMs(5 * MIN, null)).toBe(0);
  });
});

describe('computeStatistics', () => {
  it('computes extremes, mean, MKT, time out of range and excursions of a regular series', () => {
    // 2–8 °C; one reading a minute: 5, 9, 10, 7, 1, 5.
    const readings = series([[0, 5], [1, 9], [2, 10], [3, 7], [4, 1], [5, 5]]);
    const stats = computeStatistics(readings, limits([2, 8]));

    expect(stats.count).toBe(6);
    expect(stats.first).toEqual(at(0));
    expect(stats.last).toEqual(at(5));
    expect(stats.temperature.min).toBe(1);
    expect(stats.temperature.max).toBe(10);
    expect(stats.temperature.mean).toBeCloseTo(37 / 6, 10);
    expect(stats.temperature.mkt).toBeCloseTo(6.67, 2);
    expect(stats.humidity).toEqual({ min: null, max: null, mean: null });
    // 9 and 10 stand for a minute each, 1 for one more: 3 minutes.
    expect(stats.timeOutOfRangeMs).toBe(3 * MIN);
    expect(stats.excursions).toEqual([
      { start: at(1), end: at(3), durationMs: 2 * MIN, kind: 'above', quantity: 'temperature', extreme: 10 },
      { start: at(4), end: at(5), durationMs: MIN, kind: 'below', quantity: 'temperature', extreme: 1 },
    ]);
  });

  it('counts a value equal to a limit as within range', () => {
    const stats = computeStatistics(series([[0, 8], [1, 2], [2, 8], [3, 5]]), limits([2, 8]));
    expect(stats.timeOutOfRangeMs).toBe(0);
    expect(stats.excursions).toEqual([]);
  });

  it('counts a silence within an excursion as one median interval and ends the excursion there', () => {
    // Out of range at 0, 1, 2; silent until 20 (18 min > 3 × 1 min); out at 20; back in range at 21.
    const stats = computeStatistics(series([[0, 9], [1, 9], [2, 9.5], [20, 9], [21, 5]]), limits([null, 8]));
    // Intervals 1, 1, 18, 1: median 1 min. 0→1, 1→2, 2→(silence: 1), 20→21: 4 minutes.
    expect(stats.timeOutOfRangeMs).toBe(4 * MIN);
    expect(stats.excursions).toEqual([
      { start: at(0), end: at(3), durationMs: 3 * MIN, kind: 'above', quantity: 'temperature', extreme: 9.5 },
      { start: at(20), end: at(21), durationMs: MIN, kind: 'above', quantity: 'temperature', extreme: 9 },
    ]);
  });

  it('keeps a gap up to three median intervals in full', () => {
    const stats = computeStatistics(series([[0, 5], [1, 9], [4, 5], [5, 5], [6, 5]]), limits([2, 8]));
    // Intervals 1, 3, 1, 1: median 1 min; the 3-minute gap after 9 counts in full.
    expect(stats.timeOutOfRangeMs).toBe(3 * MIN);
    expect(stats.excursions[0]).toMatchObject({ start: at(1), end: at(4), durationMs: 3 * MIN });
  });

  it('splits an excursion that crosses straight from above to below', () => {
    const stats = computeStatistics(series([[0, 9], [1, 1], [2, 0], [3, 5]]), limits([2, 8]));
    expect(stats.excursions.map((e) => [e.kind, e.start, e.end, e.extreme])).toEqual([
      ['above', at(0), at(1), 9],
      ['below', at(1), at(3), 0],
    ]);
    expect(stats.timeOutOfRangeMs).toBe(3 * MIN);
  });

  it('ends an excursion still open at the last reading, which stands for no time', () => {
    const stats = computeStatistics(series([[0, 5], [1, 9], [2, 11]]), limits([2, 8]));
    expect(stats.excursions).toEqual([{ start: at(1), end: at(2), durationMs: MIN, kind: 'above', quantity: 'temperature', extreme: 11 }]);
    expect(stats.timeOutOfRangeMs).toBe(MIN);
  });

  it('handles humidity, and readings lacking one of the quantities', () => {
    // Humidity 30–70 %. Minute 2 has no humidity: it neither ends the humidity excursion nor counts as in range.
    const readings = series([
      [0, 5, 50],
      [1, 5, 75],
      [2, 5, null],
      [3, null, 80],
      [4, 5, 60],
      [5, 9, 60],
      [6, 5, 25],
    ]);
    const stats = computeStatistics(readings, limits([2, 8], [30, 70]));
    expect(stats.humidity.min).toBe(25);
    expect(stats.humidity.max).toBe(80);
    expect(stats.humidity.mean).toBeCloseTo(350 / 6, 10);
    expect(stats.temperature.mean).toBeCloseTo(34 / 6, 10);
    expect(stats.excursions).toEqual([
      { start: at(1), end: at(4), durationMs: 3 * MIN, kind: 'above', quantity: 'humidity', extreme: 80 },
      { start: at(5), end: at(6), durationMs: MIN, kind: 'above', quantity: 'temperature', extreme: 9 },
      { start: at(6), end: at(6), durationMs: 0, kind: 'below', quantity: 'humidity', extreme: 25 },
    ]);
    // Humidity out over 1→4 (3 min), temperature out over 5→6 (1 min); the last reading stands for nothing.
    expect(stats.timeOutOfRangeMs).toBe(4 * MIN);
  });

  it('sorts readings that arrive out of order', () => {
    const readings = series([[2, 10], [0, 5], [1, 9], [3, 5]]);
    const stats = computeStatistics(readings, limits([2, 8]));
    expect(stats.first).toEqual(at(0));
    expect(stats.last).toEqual(at(3));
    expect(stats.excursions).toEqual([{ start: at(1), end: at(3), durationMs: 2 * MIN, kind: 'above', quantity: 'temperature', extreme: 10 }]);
  });

  it('answers nulls and zeros for an empty period', () => {
    expect(computeStatistics([], limits([2, 8]))).toEqual({
      count: 0,
      first: null,
      last: null,
      temperature: { min: null, max: null, mean: null, mkt: null },
      humidity: { min: null, max: null, mean: null },
      timeOutOfRangeMs: 0,
      excursions: [],
    });
  });

  it('gives a single reading out of range an excursion of no duration', () => {
    const stats = computeStatistics(series([[0, 12]]), limits([2, 8]));
    expect(stats.timeOutOfRangeMs).toBe(0);
    expect(stats.excursions).toEqual([{ start: at(0), end: at(0), durationMs: 0, kind: 'above', quantity: 'temperature', extreme: 12 }]);
    expect(stats.temperature.mkt).toBeCloseTo(12, 10);
  });
});
