import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { numberArray } from '../../lib/pg-arrays';

/** A position in the export's order: a device (its compact number) and the exact instant of a reading. */
export interface ExportPosition {
  deviceNum: number;
  /** The reading's instant as PostgreSQL wrote it, to the microsecond (a JS Date would round it to the millisecond). */
  ts: string;
}

export interface ExportRow {
  device_num: number;
  ts: Date;
  ts_exact: string;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
}

/**
 * One page of the readings export (ADR 65): readings of the given devices in [from, to), strictly after `after` in
 * (device, time) order, at most `limit`. The order is the readings' primary key, so each page is one index range
 * scan per month partition, merged, stopping at the limit: a page costs the same on page 1 and page 10,000.
 */
export async function readingsAfter(
  db: Db,
  query: { deviceNums: readonly number[]; from: Date; to: Date; after: ExportPosition | null; limit: number },
): Promise<ExportRow[]> {
  if (query.deviceNums.length === 0) return [];
  const after = query.after
    ? sql`AND (device_num, ts) > (${query.after.deviceNum}::integer, ${query.after.ts}::timestamptz)`
    : sql``;
  const { rows } = await sql<ExportRow>`
    SELECT device_num, ts, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts_exact,
      temperature, humidity, battery, lat, lng
    FROM readings
    WHERE device_num = ANY(${numberArray(query.deviceNums)}::integer[])
      AND ts >= ${query.from.toISOString()}::timestamptz AND ts < ${query.to.toISOString()}::timestamptz
      ${after}
    ORDER BY device_num, ts
    LIMIT ${query.limit}`.execute(db);
  return rows;
}
