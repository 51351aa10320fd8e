import type { HistorySeries } from '@sentinela/contract';
import { MEASURE_UNIT, type ChartLine, type ChartModel, type LineKind, type Measure } from '../../components/chart/model';

export type { ChartLine, ChartModel, LineKind, Measure };
export { MEASURE_UNIT };

const LINE_LABELS: Record<Exclude<LineKind, 'value'>, string> = {
  min: 'Mínima',
  max: 'Máxima',
  mean: 'Média',
  limitMin: 'Limite mínimo',
  limitMax: 'Limite máximo',
};

/**
 * "Nada encontrado." when the filter holds one reading or none (spec 001), or when the device reported no
 * value of this measure.
 */
export function hasChartData(series: HistorySeries, measure: Measure): boolean {
  return series.count > 1 && series[measure].mean.some((value) => value !== null);
}

/**
 * Maps the server's series to uPlot: the bucket minimum, maximum (drawn as a band) and mean, then the device's
 * limits as constant lines when they are set.
 */
export function toChartModel(series: HistorySeries, measure: Measure): ChartModel {
  const values = series[measure];
  const limits = series.limits[measure];
  const { t, rows } = withGaps(series.t, [values.min, values.max, values.mean], series.bucketSeconds, series.gapSeconds);
  const data: ChartModel['data'] = [t, ...rows];
  const lines: ChartLine[] = (['min', 'max', 'mean'] as const).map((kind) => ({ kind, label: LINE_LABELS[kind] }));
  for (const [kind, limit] of [
    ['limitMin', limits.min],
    ['limitMax', limits.max],
  ] as const) {
    if (limit === null) continue;
    data.push(t.map(() => limit));
    lines.push({ kind, label: LINE_LABELS[kind] });
  }
  return { data, lines, unit: MEASURE_UNIT[measure] };
}

/**
 * The server answers only the buckets that hold readings. Where readings are missing for much longer than their
 * usual spacing (device offline, or readings left out by the filter), a null point breaks the line, so the chart
 * never draws a straight line across time without data.
 *
 * With the device's gap threshold (ADR 0035, `gapSeconds`), two buckets further apart than the threshold plus one
 * bucket always hold a real gap longer than the threshold between them (the last reading of the first bucket is at
 * most one bucket after its start), so the line breaks there too, as the coverage counts it.
 */
export function withGaps(
  t: readonly number[],
  rows: readonly (readonly (number | null)[])[],
  bucketSeconds: number,
  gapSeconds: number | null = null,
): { t: number[]; rows: (number | null)[][] } {
  if (t.length < 2 || (t.length < 3 && gapSeconds === null)) return { t: [...t], rows: rows.map((row) => [...row]) };
  const steps = t.slice(1).map((time, i) => time - t[i]!).sort((a, b) => a - b);
  const usual = steps[Math.floor(steps.length / 2)]!;
  const spacing = t.length < 3 ? Infinity : Math.max(3 * usual, 2 * bucketSeconds);
  const threshold = gapSeconds === null ? spacing : Math.min(spacing, gapSeconds + bucketSeconds);
  const outT: number[] = [];
  const outRows: (number | null)[][] = rows.map(() => []);
  for (let i = 0; i < t.length; i++) {
    if (i > 0 && t[i]! - t[i - 1]! > threshold) {
      // Just after the bucket before the gap, and before the next one (both steps are shorter than any gap).
      outT.push(t[i - 1]! + Math.min(usual, bucketSeconds));
      for (const row of outRows) row.push(null);
    }
    outT.push(t[i]!);
    rows.forEach((row, r) => outRows[r]!.push(row[i] ?? null));
  }
  return { t: outT, rows: outRows };
}
