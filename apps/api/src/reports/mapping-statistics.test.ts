import { describe, expect, it } from 'vitest';
import { computeMappingFigures } from './mapping-statistics';
import type { ReportReading } from './types';

const T0 = Date.UTC(2026, 10, 1, 12);
const MIN = 60_000;
const reading = (minute: number, temperature: number | null): ReportReading => ({ ts: new Date(T0 + minute * MIN), temperature, humidity: null, battery: null, lat: null, lng: null });
const series = (values: Array<number | null>, every = 10) => values.map((v, i) => reading(i * every, v));
const period = { from: new Date(T0), to: new Date(T0 + 60 * MIN) };
const limits = { min: 2, max: 8 };

describe('X12 mapping study figures (ADR 0083)', () => {
  it('names the hottest and coldest point by the mean, the extremes separately', () => {
    const door = series([3, 3, 12, 3, 3, 3, 3]); // one spike at the door: highest maximum, yet the coldest on average
    const back = series([6, 6, 6, 6, 6, 6, 6]);
    const middle = series([4.5, 4.5, 4.5, 4.5, 4.5, 4.5, 4.5]);
    const figures = computeMappingFigures([{ readings: door }, { readings: back }, { readings: middle }], limits, period, 6);
    expect(figures.hottest).toBe(1);
    expect(figures.coldest).toBe(0);
    expect(figures.highestMax).toBe(0);
    expect(figures.lowestMin).toBe(0);
    expect(figures.sensors[0]!.stats.timeOutOfRangeMs).toBe(10 * MIN);
  });

  it('breaks a tie of means by the higher maximum (hottest) and the lower minimum (coldest)', () => {
    const steady = series([5, 5, 5]);
    const swinging = series([3, 5, 7]);
    const figures = computeMappingFigures([{ readings: steady }, { readings: swinging }], limits, period, 3);
    expect([figures.hottest, figures.coldest]).toEqual([1, 1]);
  });

  it('takes the spread per interval among the sensors with readings there, and skips intervals with fewer than two', () => {
    const a = series([5, 5, 5, 5, 5, 5]);
    const b = [reading(0, 2), reading(10, 2), reading(50, 9)]; // silent in the middle of the hour
    const figures = computeMappingFigures([{ readings: a }, { readings: b }], limits, period, 6);
    expect(figures.spread.map((p) => [p.spread, p.hottest, p.coldest])).toEqual([
      [3, 0, 1],
      [3, 0, 1],
      [4, 1, 0],
    ]);
    expect(figures.maxSpread?.spread).toBe(4);
    expect(figures.meanSpread).toBeCloseTo(10 / 3, 10);
  });

  it('without temperature readings names no point and no spread', () => {
    const figures = computeMappingFigures([{ readings: [] }, { readings: series([null, null]) }], limits, period);
    expect([figures.hottest, figures.coldest, figures.maxSpread, figures.meanSpread, figures.spread]).toEqual([null, null, null, null, []]);
  });
});
