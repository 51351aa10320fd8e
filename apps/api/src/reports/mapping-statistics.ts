/**
 * The figures of a thermal mapping study (X12, ADR 0083): each sensor's statistics against the study's range, the
 * hottest and the coldest point, and the spread between the sensors over time. Pure, like statistics.ts.
 *
 * - Hottest / coldest point: by the sensor's mean temperature over the study (ties: the higher maximum, the lower
 *   minimum). A mapping locates where the product would sit warmest or coldest for the period — where the routine
 *   monitoring probe belongs —, which the mean says; one door opening that spikes the sensor by the door must not make
 *   it "the hot spot". The absolute extremes (highest maximum, lowest minimum, and where) are reported beside it.
 * - Spread over time: the period is cut into equal buckets; in each, every sensor's mean temperature; the spread is the
 *   highest minus the lowest of them, among the sensors with readings in that bucket (at least two).
 */
import { computeStatistics, type ReportStatistics } from './statistics';
import type { Range, ReportReading } from './types';

export interface MappingSensorFigures {
  index: number;
  stats: ReportStatistics;
}

export interface SpreadPoint {
  /** The bucket's start and end (epoch ms). */
  from: number;
  to: number;
  spread: number;
  /** Indexes of the warmest and coldest sensor in the bucket. */
  hottest: number;
  coldest: number;
}

export interface MappingFigures {
  sensors: MappingSensorFigures[];
  /** Sensor indexes; null when no sensor had a temperature reading. */
  hottest: number | null;
  coldest: number | null;
  /** The sensor with the highest maximum and the one with the lowest minimum. */
  highestMax: number | null;
  lowestMin: number | null;
  spread: SpreadPoint[];
  /** The largest spread and its bucket. */
  maxSpread: SpreadPoint | null;
  /** Mean of the buckets' spreads. */
  meanSpread: number | null;
}

/** Buckets of the spread series: fine enough for a chart of a day or a month, coarse enough to average sensors out. */
export const SPREAD_BUCKETS = 240;

export function computeMappingFigures(sensors: ReadonlyArray<{ readings: readonly ReportReading[] }>, limits: Range, period: { from: Date; to: Date }, buckets = SPREAD_BUCKETS): MappingFigures {
  const figures = sensors.map((sensor, index) => ({ index, stats: computeStatistics(sensor.readings, { temperature: limits, humidity: { min: null, max: null } }) }));
  const measured = figures.filter((f) => f.stats.temperature.mean !== null);
  const t = (f: MappingSensorFigures) => f.stats.temperature;
  const pick = (better: (a: MappingSensorFigures, b: MappingSensorFigures) => boolean) =>
    measured.length === 0 ? null : measured.reduce((best, f) => (better(f, best) ? f : best)).index;
  const hottest = pick((a, b) => t(a).mean! > t(b).mean! || (t(a).mean === t(b).mean && t(a).max! > t(b).max!));
  const coldest = pick((a, b) => t(a).mean! < t(b).mean! || (t(a).mean === t(b).mean && t(a).min! < t(b).min!));
  const highestMax = pick((a, b) => t(a).max! > t(b).max!);
  const lowestMin = pick((a, b) => t(a).min! < t(b).min!);
  const spread = spreadOverTime(sensors, period, buckets);
  const maxSpread = spread.length === 0 ? null : spread.reduce((a, b) => (b.spread > a.spread ? b : a));
  const meanSpread = spread.length === 0 ? null : spread.reduce((sum, p) => sum + p.spread, 0) / spread.length;
  return { sensors: figures, hottest, coldest, highestMax, lowestMin, spread, maxSpread, meanSpread };
}

function spreadOverTime(sensors: ReadonlyArray<{ readings: readonly ReportReading[] }>, period: { from: Date; to: Date }, buckets: number): SpreadPoint[] {
  const from = period.from.getTime();
  const span = Math.max(1, period.to.getTime() - from);
  const size = span / buckets;
  const sums = sensors.map(() => new Float64Array(buckets));
  const counts = sensors.map(() => new Uint32Array(buckets));
  sensors.forEach((sensor, s) => {
    for (const reading of sensor.readings) {
      if (reading.temperature === null) continue;
      const bucket = Math.floor((reading.ts.getTime() - from) / size);
      if (bucket < 0 || bucket > buckets) continue;
      const b = Math.min(bucket, buckets - 1); // the period's last instant belongs to the last bucket
      sums[s]![b] = sums[s]![b]! + reading.temperature;
      counts[s]![b] = counts[s]![b]! + 1;
    }
  });
  const points: SpreadPoint[] = [];
  for (let b = 0; b < buckets; b++) {
    let hottest = -1;
    let coldest = -1;
    let high = -Infinity;
    let low = Infinity;
    let present = 0;
    for (let s = 0; s < sensors.length; s++) {
      if (counts[s]![b] === 0) continue;
      present += 1;
      const mean = sums[s]![b]! / counts[s]![b]!;
      if (mean > high) [high, hottest] = [mean, s];
      if (mean < low) [low, coldest] = [mean, s];
    }
    if (present >= 2) points.push({ from: from + b * size, to: from + (b + 1) * size, spread: high - low, hottest, coldest });
  }
  return points;
}
