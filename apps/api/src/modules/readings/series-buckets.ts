import { sql, type Expression, type RawBuilder } from 'kysely';
import type { HistoryFilter } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { filtered, type HistoryWindow } from './history-repository';
import { textArray } from '../../lib/pg-arrays';
import { ROLLUP_SECONDS } from './rollups';

/**
 * Chart buckets (ADR 0041, 0045). Sizes come from a fixed ladder so that every bucket of an hour or more is made of whole
 * roll-up hours; a chart gets at most `points` + 1 buckets (the smallest step at least range / points).
 */
const LADDER_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

export function chooseBucketSeconds(rangeSeconds: number, points: number): number {
  const wanted = Math.max(1, rangeSeconds / points);
  const step = LADDER_SECONDS.find((s) => s >= wanted);
  // Beyond a day: whole days, still whole roll-up hours.
  return step ?? Math.ceil(wanted / 86400) * 86400;
}

/** One chart bucket: counts, extremes and sums per measure, so that means and overall statistics stay exact. */
export interface SeriesBucket {
  t: number;
  n: number;
  tN: number; tMin: number | null; tMax: number | null; tSum: number;
  hN: number; hMin: number | null; hMax: number | null; hSum: number;
}

const hasValueFilter = (f: HistoryFilter) => f.minTemp !== undefined || f.maxTemp !== undefined || f.minHum !== undefined || f.maxHum !== undefined;

/** The part of `[from, to]` made of whole roll-up hours: `[start, end)`, or null when there is none. */
export function wholeHours(window: HistoryWindow): { start: Date; end: Date } | null {
  const hourMs = ROLLUP_SECONDS * 1000;
  const start = Math.ceil(window.from.getTime() / hourMs) * hourMs;
  // `to` is inclusive: the hour that starts at `to` holds readings after it, so it is not whole.
  const end = Math.floor(window.to.getTime() / hourMs) * hourMs;
  return start < end ? { start: new Date(start), end: new Date(end) } : null;
}

/**
 * The buckets that hold readings, oldest first (empty buckets are absent: a gap stays a gap, ADR 0035).
 * Buckets of whole hours without value filters read (ADR 0045) the roll-ups for the whole hours of the window behind
 * the trusted line that are not marked; readings for marked hours, for the hours from the line on, and for the
 * partial hour at the window's start. Any window is exact, whether or not the job ran. Otherwise every reading is read.
 */
export async function loadSeriesBuckets(db: Db, deviceNum: number, filter: HistoryFilter, window: HistoryWindow, bucketSeconds: number): Promise<SeriesBucket[]> {
  const hours = bucketSeconds % ROLLUP_SECONDS === 0 && !hasValueFilter(filter) ? wholeHours(window) : null;
  // date_bin, not epoch arithmetic: numeric operations on thousands of rows cost more than reading them.
  const stride = sql.raw(`'${Math.trunc(bucketSeconds)} seconds'::interval`);
  const bucketOf = (column: RawBuilder<unknown>) => sql`date_bin(${stride}, ${column}, timestamptz 'epoch')`;
  const values = sql`1 AS n,
    (temperature IS NOT NULL)::int AS t_n, temperature AS t_min, temperature AS t_max, coalesce(temperature::float8, 0) AS t_sum,
    (humidity IS NOT NULL)::int AS h_n, humidity AS h_min, humidity AS h_max, coalesce(humidity::float8, 0) AS h_sum`;
  const raw = (part: HistoryWindow, endInclusive: boolean) => {
    let query = filtered(db, deviceNum, filter, part);
    if (!endInclusive) query = query.where('ts', '<', part.to);
    return query.select([
      bucketOf(sql`ts`).as('t'),
      sql`1`.as('n'),
      sql`(temperature IS NOT NULL)::int`.as('t_n'), sql`temperature`.as('t_min'), sql`temperature`.as('t_max'), sql`coalesce(temperature::float8, 0)`.as('t_sum'),
      sql`(humidity IS NOT NULL)::int`.as('h_n'), sql`humidity`.as('h_min'), sql`humidity`.as('h_max'), sql`coalesce(humidity::float8, 0)`.as('h_sum'),
    ]);
  };
  const parts: Expression<unknown>[] = [];
  if (!hours) parts.push(raw(window, true));
  else {
    const { line, marked } = await trustedHours(db, deviceNum, hours);
    const iso = (ms: number) => new Date(ms).toISOString();
    if (window.from < hours.start) parts.push(raw({ from: window.from, to: hours.start }, false));
    if (hours.start.getTime() < line) {
      const unmarked = marked.length === 0 ? sql`` : sql`AND bucket <> ALL(${textArray(marked.map(iso))}::timestamptz[])`;
      // Only columns of the key's INCLUDE list: an index-only scan, whatever the table's order.
      parts.push(sql`(SELECT ${bucketOf(sql`bucket`)} AS t, n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum FROM reading_rollups
        WHERE device_num = ${deviceNum} AND bucket >= ${hours.start.toISOString()}::timestamptz AND bucket < ${iso(line)}::timestamptz ${unmarked})`);
    }
    if (marked.length > 0) {
      parts.push(sql`(SELECT ${bucketOf(sql`ts`)} AS t, ${values} FROM readings
        WHERE device_num = ${deviceNum} AND ts >= ${iso(marked[0]!)}::timestamptz AND ts < ${iso(marked[marked.length - 1]! + ROLLUP_SECONDS * 1000)}::timestamptz
          AND date_bin('1 hour', ts, timestamptz 'epoch') = ANY(${textArray(marked.map(iso))}::timestamptz[]))`);
    }
    parts.push(raw({ from: new Date(line), to: window.to }, true));
  }
  const rows = await sql<{ t: number; n: number; tN: number; tMin: number | null; tMax: number | null; tSum: number; hN: number; hMin: number | null; hMax: number | null; hSum: number }>`
    SELECT extract(epoch from p.t)::float8 AS "t", sum(p.n)::float8 AS "n",
      sum(p.t_n)::float8 AS "tN", min(p.t_min)::float8 AS "tMin", max(p.t_max)::float8 AS "tMax", sum(p.t_sum)::float8 AS "tSum",
      sum(p.h_n)::float8 AS "hN", min(p.h_min)::float8 AS "hMin", max(p.h_max)::float8 AS "hMax", sum(p.h_sum)::float8 AS "hSum"
    FROM (${sql.join(parts, sql` UNION ALL `)}) p
    GROUP BY p.t ORDER BY p.t`.execute(db);
  return rows.rows.map((r) => ({
    t: Number(r.t), n: Number(r.n),
    tN: Number(r.tN), tMin: r.tMin, tMax: r.tMax, tSum: Number(r.tSum),
    hN: Number(r.hN), hMin: r.hMin, hMax: r.hMax, hSum: Number(r.hSum),
  }));
}

/**
 * The trusted line, clipped to the window's whole hours (ms), and the device's marked hours behind it, oldest first.
 * Read in a statement before the buckets' own, so that one is planned with literal bounds (partitions pruned while
 * planning: with bounds known only at run time, planning every monthly partition cost more than reading a year of
 * roll-ups). The line only moves forward and a mark only goes with the recomputation of its hour, so the buckets'
 * statement, a moment later, still finds exact roll-ups for every unmarked hour behind this line; a reading committed
 * between the two statements may or may not be counted, as with any read made a moment earlier.
 */
async function trustedHours(db: Db, deviceNum: number, hours: { start: Date; end: Date }): Promise<{ line: number; marked: number[] }> {
  const { rows } = await sql<{ line: number | null; marked: number[] | null }>`
    SELECT (SELECT extract(epoch from trusted_before)::float8 * 1000 FROM reading_rollup_state) AS line,
      ARRAY(SELECT DISTINCT extract(epoch from bucket)::float8 * 1000 FROM reading_rollup_marks
        WHERE device_num = ${deviceNum} AND bucket >= ${hours.start.toISOString()}::timestamptz AND bucket < ${hours.end.toISOString()}::timestamptz
        ORDER BY 1) AS marked`.execute(db);
  // Without the state row (never after the migration) nothing is trusted: every reading is read.
  const line = Math.max(hours.start.getTime(), Math.min(hours.end.getTime(), Number(rows[0]?.line ?? hours.start.getTime())));
  const marked = (rows[0]?.marked ?? []).map(Number).filter((ms) => ms < line);
  return { line, marked };
}
