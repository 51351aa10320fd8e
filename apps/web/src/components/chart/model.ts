/** What the shared line chart draws: aligned series over time, each line styled by its kind. */
export type Measure = 'temperature' | 'humidity';

/**
 * What each drawn line is; the chart styles lines by kind with fixed colours. `min`/`max` (bucket extremes, drawn
 * as a band) and `mean` come from downsampled series; `value` is a plain reading line.
 */
export type LineKind = 'min' | 'max' | 'mean' | 'value' | 'limitMin' | 'limitMax';

export interface ChartLine {
  kind: LineKind;
  label: string;
}

export interface ChartModel {
  /** uPlot's aligned data: x (epoch seconds) first, then one array per line, in the order of `lines`. */
  data: [number[], ...(number | null)[][]];
  lines: ChartLine[];
  unit: string;
}

export const MEASURE_UNIT: Record<Measure, string> = { temperature: '°C', humidity: '%' };
