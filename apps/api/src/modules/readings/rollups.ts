import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { numberArray, textArray } from '../../lib/pg-arrays';

/**
 * Hourly roll-ups of readings (ADR 0045): per device and UTC hour, the count of readings and, per measure, how many
 * held a value, their minimum, maximum and sum. Written only by the roll-up job (rollup-job.ts) and bulk loads;
 * ingestion only marks the hours of readings that arrive behind the roll-up line (`markHoursBehindLine`).
 */

export const ROLLUP_SECONDS = 3600;
const HOUR_MS = ROLLUP_SECONDS * 1000;

export const COLUMNS = sql`(device_num, bucket, n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum, b_n, b_min, b_max, b_sum)`;

/** The roll-up of a set of readings `x` (aggregates in the order of COLUMNS after the key). */
export const AGGREGATES = sql`count(*),
  count(x.temperature), min(x.temperature), max(x.temperature), coalesce(sum(x.temperature::float8), 0),
  count(x.humidity), min(x.humidity), max(x.humidity), coalesce(sum(x.humidity::float8), 0),
  count(x.battery), min(x.battery), max(x.battery), coalesce(sum(x.battery::float8), 0)`;

export const REPLACE = sql`ON CONFLICT (device_num, bucket) DO UPDATE SET n = excluded.n,
  t_n = excluded.t_n, t_min = excluded.t_min, t_max = excluded.t_max, t_sum = excluded.t_sum,
  h_n = excluded.h_n, h_min = excluded.h_min, h_max = excluded.h_max, h_sum = excluded.h_sum,
  b_n = excluded.b_n, b_min = excluded.b_min, b_max = excluded.b_max, b_sum = excluded.b_sum`;

/** The start of the UTC hour of an instant in ms. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** A device's hour: the key of a roll-up row and of a mark. */
export interface RollupHour {
  deviceNum: number;
  hourMs: number;
}

/**
 * The distinct (device, hour) pairs of readings older than `beforeMs` (all of them without it). Readings sorted by
 * device and time (ingestion's order) cost one comparison each; any order gives the right pairs.
 */
export function hoursOf(deviceNum: readonly number[], tsMs: readonly number[], beforeMs = Infinity): RollupHour[] {
  const out: RollupHour[] = [];
  const seen = new Set<string>();
  let last: RollupHour | undefined;
  for (let i = 0; i < deviceNum.length; i++) {
    if (!(tsMs[i]! < beforeMs)) continue;
    const pair = { deviceNum: deviceNum[i]!, hourMs: hourOf(tsMs[i]!) };
    if (last && last.deviceNum === pair.deviceNum && last.hourMs === pair.hourMs) continue;
    last = pair;
    const key = `${pair.deviceNum} ${pair.hourMs}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pair);
  }
  return out;
}

const pairArrays = (pairs: readonly RollupHour[]) => ({
  nums: numberArray(pairs.map((p) => p.deviceNum)),
  buckets: textArray(pairs.map((p) => new Date(p.hourMs).toISOString())),
});

/**
 * Marks hours whose readings changed behind the roll-up line: readers then read them from readings, and the job
 * recomputes them; the seal job makes addenda of those that fall in sealed days (ADR 0080). Plain inserts (one row per pair and call): never a conflict, so never a wait on another batch.
 * Must run in the transaction that changed the readings.
 */
export async function markRollupHours(db: Db, pairs: readonly RollupHour[]): Promise<void> {
  if (pairs.length === 0) return;
  const { nums, buckets } = pairArrays(pairs);
  // The same pairs are the seal job's late readings (ADR 0080): one statement, no extra round trip.
  await sql`WITH pairs AS (SELECT * FROM unnest(${nums}::int[], ${buckets}::timestamptz[]) AS p(device_num, bucket)),
    rollup AS (INSERT INTO reading_rollup_marks (device_num, bucket) SELECT device_num, bucket FROM pairs)
    INSERT INTO seal_marks (device_num, bucket) SELECT device_num, bucket FROM pairs`.execute(db);
}

/**
 * Ingestion's share (ADR 0045): the hours of the batch's readings older than the line it read after writing them
 * (ADR 0046) are marked; readings at or after the line need nothing (the job rolls their hours up once they are
 * behind it). Nothing is written for a batch of current readings.
 */
export async function markHoursBehindLine(db: Db, c: { deviceNum: readonly number[]; tsMs: readonly number[] }, lineMs: number): Promise<void> {
  await markRollupHours(db, hoursOf(c.deviceNum, c.tsMs, lineMs));
}

/** The line ingestion compares readings with (`published_before`), in ms; when a statement could not carry it. */
export async function readPublishedLine(db: Db): Promise<number> {
  const row = await db.selectFrom('reading_rollup_state').select('published_before').executeTakeFirstOrThrow();
  return row.published_before.getTime();
}

/** Rolls up the given hours again from readings: hours left without readings lose their row. The job's work. */
export async function recomputeRollupHours(db: Db, pairs: readonly RollupHour[]): Promise<void> {
  if (pairs.length === 0) return;
  const { nums, buckets } = pairArrays(pairs);
  const keys = sql`unnest(${nums}::int[], ${buckets}::timestamptz[]) AS k(num, bucket)`;
  await sql`DELETE FROM reading_rollups r USING ${keys} WHERE r.device_num = k.num AND r.bucket = k.bucket`.execute(db);
  await sql`
    INSERT INTO reading_rollups ${COLUMNS}
    SELECT k.num, k.bucket, ${AGGREGATES}
    FROM ${keys}
    JOIN readings x ON x.device_num = k.num AND x.ts >= k.bucket AND x.ts < k.bucket + interval '1 hour'
    GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
}

/**
 * Rolls up every device's hours in [from, to) (whole hours) from readings, device by device along the readings' key:
 * the job's pass over hours that just fell behind the line.
 */
export async function rollUpHours(db: Db, from: Date, to: Date): Promise<void> {
  await sql`
    INSERT INTO reading_rollups ${COLUMNS}
    SELECT d.num, a.* FROM devices d CROSS JOIN LATERAL (
      SELECT date_bin('1 hour', x.ts, timestamptz 'epoch'), ${AGGREGATES}
      FROM readings x WHERE x.device_num = d.num AND x.ts >= ${from.toISOString()}::timestamptz AND x.ts < ${to.toISOString()}::timestamptz
      GROUP BY 1) a
    ORDER BY 1, 2
    ${REPLACE}`.execute(db);
}

/**
 * Rolls up again, from readings, every hour of some devices (or of all) that overlaps [from, to): hours whose
 * readings are gone lose their row. For bulk loads that write readings around ingestion (the benchmark); whatever
 * changes readings while the server runs marks the hours instead (`markRollupHours`), so the job recomputes them.
 */
export async function refreshRollups(db: Db, range: { deviceNums?: readonly number[]; from: Date; to: Date }): Promise<void> {
  const from = new Date(hourOf(range.from.getTime())).toISOString();
  const to = new Date(Math.ceil(range.to.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const devices = (column: string) => (range.deviceNums === undefined ? sql`` : sql`AND ${sql.ref(column)} = ANY(${numberArray(range.deviceNums)}::int[])`);
  await sql`DELETE FROM reading_rollups WHERE bucket >= ${from}::timestamptz AND bucket < ${to}::timestamptz ${devices('device_num')}`.execute(db);
  await sql`
    INSERT INTO reading_rollups ${COLUMNS}
    SELECT x.device_num, date_bin('1 hour', x.ts, timestamptz 'epoch'), ${AGGREGATES}
    FROM readings x WHERE x.ts >= ${from}::timestamptz AND x.ts < ${to}::timestamptz ${devices('x.device_num')}
    GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
}
