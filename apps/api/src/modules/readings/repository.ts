import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { numberArray, textArray } from '../../lib/pg-arrays';
import { ensureReadingPartitions } from './partitions';
import { hoursOf, markRollupHours } from './rollups';

export interface ReadingRow {
  deviceNum: number;
  ts: Date;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  travelId: string | null;
  seq?: number | null;
  seqModulo?: number | null;
}

/**
 * Readings as parallel columns (what the hot path builds directly). Times travel as epoch milliseconds:
 * formatting thousands of ISO strings per batch costs more than the database's to_timestamp, which is
 * exact at millisecond precision.
 */
export interface ReadingColumns {
  deviceNum: number[];
  tsMs: number[];
  temperature: (number | null)[];
  humidity: (number | null)[];
  battery: (number | null)[];
  lat: (number | null)[];
  lng: (number | null)[];
  travelId: (string | null)[];
  seq: (number | null)[];
  seqModulo: (number | null)[];
}

/** INSERT … SELECT from the columns as arrays, unnested server-side. */
function insertFromColumns(c: ReadingColumns) {
  return sql`
    INSERT INTO readings (device_num, ts, temperature, humidity, battery, lat, lng, travel_id, seq, seq_modulo)
    SELECT u.num, to_timestamp(u.ms / 1000), u.temperature, u.humidity, u.battery, u.lat, u.lng, u.travel_id, u.seq, u.seq_modulo
    FROM unnest(
      ${numberArray(c.deviceNum)}::int[], ${numberArray(c.tsMs)}::float8[],
      ${numberArray(c.temperature)}::real[], ${numberArray(c.humidity)}::real[], ${numberArray(c.battery)}::real[],
      ${numberArray(c.lat)}::float8[], ${numberArray(c.lng)}::float8[], ${textArray(c.travelId)}::uuid[],
      ${numberArray(c.seq)}::int[], ${numberArray(c.seqModulo)}::int[]
    ) AS u(num, ms, temperature, humidity, battery, lat, lng, travel_id, seq, seq_modulo)`;
}

/**
 * Stores readings in one statement per batch (arrays unnested server-side). Returns how many rows were new.
 * The partitions must exist (ensureReadingPartitions).
 *
 * With `skipDuplicates`, a (device, time) already stored is skipped (ON CONFLICT DO NOTHING). Without it, a
 * duplicate fails the statement (unique violation, 23505); that plain insert costs PostgreSQL about half as
 * much, so the ingestion tries it first and falls back to skipping only when a batch repeats stored readings.
 */
export async function insertReadingColumns(db: Db, c: ReadingColumns, { skipDuplicates = true } = {}): Promise<number> {
  if (c.deviceNum.length === 0) return 0;
  const conflict = skipDuplicates ? sql`ON CONFLICT (device_num, ts) DO NOTHING` : sql``;
  const result = await sql`
    ${insertFromColumns(c)}
    ${conflict}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A stored reading's key, its time in epoch milliseconds. */
export interface ReadingKey {
  num: number;
  ms: number;
}

/**
 * Stores readings, skipping any (device, time) already stored (ON CONFLICT DO NOTHING), and returns the keys of the
 * rows that were new: what a batch that repeats stored readings needs to know which of its rows it added (ADR 42).
 * One statement; the partitions must exist.
 */
export async function insertNewReadingColumns(db: Db, c: ReadingColumns): Promise<ReadingKey[]> {
  if (c.deviceNum.length === 0) return [];
  const result = await sql<ReadingKey>`
    ${insertFromColumns(c)}
    ON CONFLICT (device_num, ts) DO NOTHING
    RETURNING device_num AS num, (extract(epoch FROM ts) * 1000)::float8 AS ms`.execute(db);
  return result.rows;
}

/** Stores readings (creating the monthly partitions they need); returns how many rows were new. */
export async function insertReadings(db: Db, rows: readonly ReadingRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await ensureReadingPartitions(db, rows.map((r) => r.ts));
  const columns: ReadingColumns = {
    deviceNum: rows.map((r) => r.deviceNum),
    tsMs: rows.map((r) => r.ts.getTime()),
    temperature: rows.map((r) => r.temperature),
    humidity: rows.map((r) => r.humidity),
    battery: rows.map((r) => r.battery),
    lat: rows.map((r) => r.lat),
    lng: rows.map((r) => r.lng),
    travelId: rows.map((r) => r.travelId),
    seq: rows.map((r) => r.seq ?? null),
    seqModulo: rows.map((r) => r.seqModulo ?? null),
  };
  // Seeds and tests write around ingestion: every hour they touch is marked, whatever the roll-up line, in the
  // transaction that adds the readings (ADR 0045).
  const write = async (trx: Db) => {
    const inserted = await insertReadingColumns(trx, columns);
    await markRollupHours(trx, hoursOf(columns.deviceNum, columns.tsMs));
    return inserted;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
