import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { ensureReadingPartitions } from './partitions';

export interface ReadingRow {
  deviceNum: number;
  ts: Date;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  travelId: string | null;
}

/**
 * Stores readings in one statement per batch (arrays unnested server-side), skipping any (device, time)
 * already stored. Returns how many rows were new.
 */
export async function insertReadings(db: Db, rows: readonly ReadingRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await ensureReadingPartitions(db, rows.map((r) => r.ts));
  const col = <T>(pick: (r: ReadingRow) => T) => rows.map(pick);
  const result = await sql`
    INSERT INTO readings (device_num, ts, temperature, humidity, battery, lat, lng, travel_id)
    SELECT * FROM unnest(
      ${col((r) => r.deviceNum)}::int[], ${col((r) => r.ts.toISOString())}::timestamptz[],
      ${col((r) => r.temperature)}::real[], ${col((r) => r.humidity)}::real[], ${col((r) => r.battery)}::real[],
      ${col((r) => r.lat)}::float8[], ${col((r) => r.lng)}::float8[], ${col((r) => r.travelId)}::uuid[]
    )
    ON CONFLICT (device_num, ts) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
