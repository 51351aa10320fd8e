import { describe, expect, it } from 'vitest';
import type { ReportReading } from '../types';
import { downsampleMinMax } from './downsample';

const T0 = Date.UTC(2026, 2, 2, 3);
const reading = (minute: number, temperature: number | null): ReportReading => ({ ts: new Date(T0 + minute * 60_000), temperature, humidity: null, battery: null, lat: null, lng: null });

describe('downsampleMinMax', () => {
  const wave = Array.from({ length: 10_000 }, (_, i) => reading(i, 5 + Math.sin(i / 100) + (i === 4321 ? 20 : 0) - (i === 777 ? 15 : 0)));
  const options = { from: T0, to: T0 + 9_999 * 60_000, buckets: 500, gapMs: 3 * 60_000 };

  it('keeps at most two points per bucket, in time order, spikes included', () => {
    const segments = downsampleMinMax(wave, 'temperature', options);
    expect(segments).toHaveLength(1);
    const points = segments[0]!;
    expect(points.length).toBeLessThanOrEqual(1000);
    expect(points.length).toBeGreaterThan(900);
    for (let i = 1; i < points.length; i++) expect(points[i]!.t).toBeGreaterThanOrEqual(points[i - 1]!.t);
    expect(Math.max(...points.map((p) => p.v))).toBe(Math.max(...wave.map((r) => r.temperature!)));
    expect(Math.min(...points.map((p) => p.v))).toBe(Math.min(...wave.map((r) => r.temperature!)));
    expect(points.find((p) => p.v > 20)?.t).toBe(T0 + 4321 * 60_000);
  });

  it('breaks the line at a silence and skips readings without the value', () => {
    const readings = [reading(0, 5), reading(1, 6), reading(2, null), reading(3, 7), reading(30, 4), reading(31, 4.5)];
    const segments = downsampleMinMax(readings, 'temperature', { from: T0, to: T0 + 31 * 60_000, buckets: 500, gapMs: 3 * 60_000 });
    expect(segments.map((segment) => segment.map((p) => p.v))).toEqual([[5, 6, 7], [4, 4.5]]);
  });

  it('gives nothing for a quantity the device does not measure', () => {
    expect(downsampleMinMax(wave, 'humidity', options)).toEqual([]);
  });
});
