import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { numberArray } from '../../lib/pg-arrays';

/**
 * Hourly roll-ups of readings (ADR 0041): per device and UTC hour, the count of readings and, per measure, how many
 * held a value, their minimum, maximum and sum. Kept in the transaction that stores the readings, so a chart never
 * sees a reading without its roll-up or the reverse.
 */

export const ROLLUP_SECONDS = 3600;

/** The hour a reading belongs to: UTC, whatever the session's time zone. */
const HOUR_OF_MS = (ms: unknown) => sql`date_bin('1 hour', to_timestamp(${ms} / 1000), timestamptz 'epoch')`;

const COLUMNS = sql`(device_num, bucket, n, t_n, t_min, t_max, t_sum, h_n, h_min, h_max, h_sum, b_n, b_min, b_max, b_sum)`;

/** The roll-up of a set of readings `x` (aggregates in the order of COLUMNS after the key). */
const AGGREGATES = sql`count(*),
  count(x.temperature), min(x.temperature), max(x.temperature), coalesce(sum(x.temperature::float8), 0),
  count(x.humidity), min(x.humidity), max(x.humidity), coalesce(sum(x.humidity::float8), 0),
  count(x.battery), min(x.battery), max(x.battery), coalesce(sum(x.battery::float8), 0)`;

const REPLACE = sql`ON CONFLICT (device_num, bucket) DO UPDATE SET n = excluded.n,
  t_n = excluded.t_n, t_min = excluded.t_min, t_max = excluded.t_max, t_sum = excluded.t_sum,
  h_n = excluded.h_n, h_min = excluded.h_min, h_max = excluded.h_max, h_sum = excluded.h_sum,
  b_n = excluded.b_n, b_min = excluded.b_min, b_max = excluded.b_max, b_sum = excluded.b_sum`;

/** The columns of a batch the roll-ups need (a subset of ReadingColumns: times as epoch milliseconds). */
export interface RollupColumns {
  deviceNum: readonly number[];
  tsMs: readonly number[];
  temperature: readonly (number | null)[];
  humidity: readonly (number | null)[];
  battery: readonly (number | null)[];
}

/**
 * Brings the roll-ups up to date with a batch just written in the same transaction. One statement.
 *
 * - `allNew`: every row of the batch was inserted (a plain insert or COPY that succeeded). The batch's own rows are
 *   aggregated and added to the hours they fall in: nothing is read from readings.
 * - otherwise (the batch went through ON CONFLICT DO NOTHING: some rows may have been stored before), the hours the
 *   batch touches are counted again from readings, so a reading delivered twice is never counted twice.
 *
 * The caller must hold the batch's devices locked (the ingestion locks them in device order before): a recount
 * then sees every reading that a concurrent batch of the same devices committed, and concurrent batches never
 * update the same roll-up rows in different orders.
 */
export async function addBatchToRollups(db: Db, c: RollupColumns, { allNew }: { allNew: boolean }): Promise<void> {
  if (c.deviceNum.length === 0) return;
  if (allNew) {
    await sql`
      INSERT INTO reading_rollups AS r ${COLUMNS}
      SELECT x.num, ${HOUR_OF_MS(sql`x.ms`)}, ${AGGREGATES}
      FROM unnest(${numberArray(c.deviceNum)}::int[], ${numberArray(c.tsMs)}::float8[], ${numberArray(c.temperature)}::real[],
        ${numberArray(c.humidity)}::real[], ${numberArray(c.battery)}::real[]) AS x(num, ms, temperature, humidity, battery)
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (device_num, bucket) DO UPDATE SET n = r.n + excluded.n,
        t_n = r.t_n + excluded.t_n, t_min = least(r.t_min, excluded.t_min), t_max = greatest(r.t_max, excluded.t_max), t_sum = r.t_sum + excluded.t_sum,
        h_n = r.h_n + excluded.h_n, h_min = least(r.h_min, excluded.h_min), h_max = greatest(r.h_max, excluded.h_max), h_sum = r.h_sum + excluded.h_sum,
        b_n = r.b_n + excluded.b_n, b_min = least(r.b_min, excluded.b_min), b_max = greatest(r.b_max, excluded.b_max), b_sum = r.b_sum + excluded.b_sum`.execute(db);
    return;
  }
  await sql`
    INSERT INTO reading_rollups ${COLUMNS}
    SELECT k.num, k.bucket, ${AGGREGATES}
    FROM (SELECT DISTINCT u.num, ${HOUR_OF_MS(sql`u.ms`)} AS bucket
          FROM unnest(${numberArray(c.deviceNum)}::int[], ${numberArray(c.tsMs)}::float8[]) AS u(num, ms)) k
    JOIN readings x ON x.device_num = k.num AND x.ts >= k.bucket AND x.ts < k.bucket + interval '1 hour'
    GROUP BY 1, 2 ORDER BY 1, 2
    ${REPLACE}`.execute(db);
}

/**
 * Rolls up again, from readings, every hour of some devices (or of all) that overlaps [from, to): hours whose
 * readings are gone lose their row. For whatever writes or removes readings outside the ingestion (bulk loads, a
 * future retention job); run it in the transaction that changed the readings.
 */
export async function refreshRollups(db: Db, range: { deviceNums?: readonly number[]; from: Date; to: Date }): Promise<void> {
  const hourMs = ROLLUP_SECONDS * 1000;
  const from = new Date(Math.floor(range.from.getTime() / hourMs) * hourMs).toISOString();
  const to = new Date(Math.ceil(range.to.getTime() / hourMs) * hourMs).toISOString();
  const devices = (column: string) => (range.deviceNums === undefined ? sql`` : sql`AND ${sql.ref(column)} = ANY(${numberArray(range.deviceNums)}::int[])`);
  await sql`DELETE FROM reading_rollups WHERE bucket >= ${from}::timestamptz AND bucket < ${to}::timestamptz ${devices('device_num')}`.execute(db);
  await sql`
    INSERT INTO reading_rollups ${COLUMNS}
    SELECT x.device_num, date_bin('1 hour', x.ts, timestamptz 'epoch'), ${AGGREGATES}
    FROM readings x WHERE x.ts >= ${from}::timestamptz AND x.ts < ${to}::timestamptz ${devices('x.device_num')}
    GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
}
