import type { TravelReading } from '@sentinela/contract';
import { MEASURE_UNIT, type ChartLine, type ChartModel, type Measure } from '../../components/chart/model';

const MEASURE_LABEL: Record<Measure, string> = { temperature: 'Temperatura', humidity: 'Umidade' };

export interface MeasureStats {
  max: number | null;
  min: number | null;
  count: number;
}

/** Readings oldest first, with a value of the measure. */
function points(readings: readonly TravelReading[], measure: Measure): { t: number; value: number }[] {
  return readings
    .filter((reading) => reading[measure] !== null)
    .map((reading) => ({ t: Date.parse(reading.createdAt) / 1000, value: reading[measure] as number }))
    .sort((a, b) => a.t - b.t);
}

/** The maximum and minimum registered values of the travel's readings (graph modal, T3). */
export function measureStats(readings: readonly TravelReading[], measure: Measure): MeasureStats {
  const values = points(readings, measure).map((point) => point.value);
  return {
    max: values.length ? Math.max(...values) : null,
    min: values.length ? Math.min(...values) : null,
    count: values.length,
  };
}

/** One line of the measure over Horário, with the device's limits in the travel as dashed lines. */
export function readingsChartModel(
  readings: readonly TravelReading[],
  measure: Measure,
  limits: { min: number | null; max: number | null },
): ChartModel {
  const series = points(readings, measure);
  const t = series.map((point) => point.t);
  const data: ChartModel['data'] = [t, series.map((point) => point.value)];
  const lines: ChartLine[] = [{ kind: 'value', label: MEASURE_LABEL[measure] }];
  if (limits.min !== null) {
    data.push(t.map(() => limits.min));
    lines.push({ kind: 'limitMin', label: 'Limite mínimo' });
  }
  if (limits.max !== null) {
    data.push(t.map(() => limits.max));
    lines.push({ kind: 'limitMax', label: 'Limite máximo' });
  }
  return { data, lines, unit: MEASURE_UNIT[measure] };
}
