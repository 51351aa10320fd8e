import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openTestDatabase } from '../../../test/context';
import type { DatabaseHandle } from '../../db/database';
import { insertReadings } from './repository';

let handle: DatabaseHandle;
let deviceNum: number;
beforeAll(async () => {
  handle = await openTestDatabase();
  const d = await handle.db.insertInto('devices').values({ mac: 'AA:BB:CC:DD:EE:01', name: 'Teste', model: null, key: null, enterprise_id: null, location_id: null, group_id: null, temperature_min: null, temperature_max: null, humidity_min: null, humidity_max: null, no_data_minutes: null }).returning('num').executeTakeFirstOrThrow();
  deviceNum = d.num;
});
afterAll(() => handle.close());

const reading = (iso: string, temperature: number) => ({ deviceNum, ts: new Date(iso), temperature, humidity: 50, battery: 90, lat: null, lng: null, travelId: null });

describe('insertReadings', () => {
  it('creates the monthly partitions it needs and stores each (device, time) once', async () => {
    const batch = [reading('2026-10-31T23:59:00Z', 4.5), reading('2026-11-01T00:01:00Z', 5.25), reading('2027-01-15T10:00:00Z', 6)];
    expect(await insertReadings(handle.db, batch)).toBe(3);
    expect(await insertReadings(handle.db, [...batch, reading('2026-11-01T00:02:00Z', 7)])).toBe(1);
    const rows = await handle.db.selectFrom('readings').select(['ts', 'temperature']).orderBy('ts').execute();
    expect(rows.map((r) => r.temperature)).toEqual([4.5, 5.25, 7, 6]);
    const parts = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'readings'::regclass order by 1`.execute(handle.db);
    expect(parts.rows.map((p) => p.name)).toEqual(['readings_p202610', 'readings_p202611', 'readings_p202701']);
  });
});
