/**
 * Thins a series for a chart without hiding what matters: the time axis is cut into buckets and each bucket keeps
 * its lowest and highest reading, in time order. A spike survives however many readings surround it, and the chart
 * draws at most 2 × buckets points whatever the period. A silence (see statistics: GAP_FACTOR × the median
 * interval) breaks the line instead of drawing a slope nobody measured.
 */
import type { Quantity } from '../statistics';
import type { ReportReading } from '../types';

export interface Point {
  t: number;
  v: number;
}

/** Runs of points to draw as separate lines; a lone point is drawn as a dot. */
export type Segments = Point[][];

export function downsampleMinMax(
  readings: readonly ReportReading[],
  quantity: Quantity,
  options: { from: number; to: number; buckets: number; gapMs: number | null },
): Segments {
  const { from, to, buckets } = options;
  const bucketMs = Math.max(1, (to - from) / buckets);
  // Adjacent kept points of adjacent buckets can be up to two buckets apart: only a longer pause is a silence.
  const breakMs = Math.max(options.gapMs ?? Number.POSITIVE_INFINITY, 2 * bucketMs);
  const segments: Segments = [];
  let segment: Point[] = [];
  let bucket = -1;
  let low: Point | null = null;
  let high: Point | null = null;
  let previousMs = Number.NaN;

  const flush = () => {
    if (!low || !high) return;
    if (low === high) segment.push(low);
    else if (low.t <= high.t) segment.push(low, high);
    else segment.push(high, low);
    low = high = null;
  };

  for (const reading of readings) {
    const v = reading[quantity];
    if (v === null) continue;
    const t = reading.ts.getTime();
    if (t - previousMs > breakMs) {
      flush();
      if (segment.length > 0) segments.push(segment);
      segment = [];
      bucket = -1;
    }
    previousMs = t;
    const index = Math.min(buckets - 1, Math.floor((t - from) / bucketMs));
    if (index !== bucket) {
      flush();
      bucket = index;
    }
    const point = { t, v };
    if (!low || v < low.v) low = point;
    if (!high || v > high.v) high = point;
  }
  flush();
  if (segment.length > 0) segments.push(segment);
  return segments;
}
