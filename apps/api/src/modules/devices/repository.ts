import type { Device } from '@sentinela/contract';
import { sql, type Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { DevicesTable } from '../../db/schema';
import type { TenantScope } from '../../lib/tenant-scope';
import { expectedIntervalOf } from '../readings/expected-interval';

function deviceQuery(db: Db) {
  return db
    .selectFrom('devices as d')
    .leftJoin('enterprises as e', 'e.id', 'd.enterprise_id')
    .select([
      'd.id', 'd.name', 'd.model', 'd.mac', 'd.key', 'd.last_sync_at', 'd.created_at', 'd.enterprise_id',
      'e.name as enterprise_name', 'd.temperature_min', 'd.temperature_max', 'd.humidity_min', 'd.humidity_max',
      'd.out_of_range_minutes', 'd.no_data_minutes', 'd.last_battery', 'd.last_temperature', 'd.last_humidity',
      'd.report_interval_seconds', 'd.learned_interval_seconds',
      // The due date of the certificate in force (the latest calibration), for the screens' badge (ADR 0077).
      sql<string | null>`(SELECT to_char(c.due_at, 'YYYY-MM-DD') FROM calibrations c WHERE c.device_id = d.id
        ORDER BY c.calibrated_at DESC, c.created_at DESC LIMIT 1)`.as('calibration_due_at'),
    ]);
}

type DeviceRow = Awaited<ReturnType<ReturnType<typeof deviceQuery>['executeTakeFirstOrThrow']>>;

export function toDevice(row: DeviceRow): Device {
  return {
    _id: row.id,
    name: row.name,
    model: row.model,
    mac: row.mac,
    key: row.key,
    lastSyncDate: row.last_sync_at ? row.last_sync_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    config: {
      temperature: { min: row.temperature_min, max: row.temperature_max },
      humidity: { min: row.humidity_min, max: row.humidity_max },
      out_of_range_minutes: row.out_of_range_minutes,
      no_data_minutes: row.no_data_minutes,
      report_interval_seconds: row.report_interval_seconds,
    },
    enterprise: row.enterprise_id && row.enterprise_name ? { _id: row.enterprise_id, name: row.enterprise_name } : null,
    battery: row.last_battery,
    temperature: row.last_temperature,
    humidity: row.last_humidity,
    expectedIntervalSeconds: expectedIntervalOf(row.report_interval_seconds, row.learned_interval_seconds),
    calibration_due_at: row.calibration_due_at,
  };
}

/** Restricts a devices query (aliased `d`) to what the scope may see. */
export function devicesInScope<Q extends ReturnType<typeof deviceQuery>>(query: Q, scope: TenantScope): Q {
  switch (scope.kind) {
    case 'all':
      return query;
    case 'enterprise':
      return query.where('d.enterprise_id', '=', scope.enterpriseId) as Q;
    case 'user':
      return query.where(({ exists, selectFrom }) =>
        exists(selectFrom('device_users as du').select('du.device_id').whereRef('du.device_id', '=', 'd.id').where('du.user_id', '=', scope.userId)),
      ) as Q;
  }
}

export async function findDeviceInScope(db: Db, scope: TenantScope, id: string): Promise<Device | undefined> {
  const row = await devicesInScope(deviceQuery(db), scope).where('d.id', '=', id).executeTakeFirst();
  return row && toDevice(row);
}

export async function listDevicesInScope(db: Db, scope: TenantScope, filter: { enterpriseId?: string } = {}): Promise<Device[]> {
  let query = devicesInScope(deviceQuery(db), scope);
  if (filter.enterpriseId) query = query.where('d.enterprise_id', '=', filter.enterpriseId);
  const rows = await query.orderBy('d.created_at', 'desc').orderBy('d.id').execute();
  return rows.map(toDevice);
}

export async function findDeviceByMacInScope(db: Db, scope: TenantScope, mac: string) {
  const row = await devicesInScope(deviceQuery(db), scope).select('d.num').where('d.mac', '=', mac).executeTakeFirst();
  return row && { device: toDevice(row), num: row.num };
}

/** The compact numbers (readings' key) and MACs of every device the scope may see, in number order. */
export async function listDeviceNumsInScope(db: Db, scope: TenantScope): Promise<{ num: number; mac: string }[]> {
  return devicesInScope(deviceQuery(db), scope).clearSelect().select(['d.num', 'd.mac']).orderBy('d.num').execute();
}

export async function countReadingsOfDevice(db: Db, deviceNum: number): Promise<number> {
  const row = await db.selectFrom('readings').select((eb) => eb.fn.countAll<number>().as('count')).where('device_num', '=', deviceNum).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function renameDevice(db: Db, id: string, name: string, now: Date): Promise<void> {
  await db.updateTable('devices').set({ name, updated_at: now }).where('id', '=', id).execute();
}

export type DeviceSettings = Partial<Pick<Updateable<DevicesTable>, 'name' | 'location_id' | 'group_id' | 'temperature_min' | 'temperature_max' | 'humidity_min' | 'humidity_max' | 'out_of_range_minutes' | 'no_data_minutes' | 'report_interval_seconds'>>;

export async function updateDeviceSettings(db: Db, id: string, settings: DeviceSettings, now: Date): Promise<void> {
  await db.updateTable('devices').set({ ...settings, updated_at: now }).where('id', '=', id).execute();
}

/** The device's location and group, with their names (for the device event of a change). */
export async function findPlacement(db: Db, id: string): Promise<{ location: { id: string; name: string } | null; group: { id: string; name: string } | null }> {
  const row = await db
    .selectFrom('devices as d')
    .leftJoin('locations as l', 'l.id', 'd.location_id')
    .leftJoin('device_groups as g', 'g.id', 'd.group_id')
    .select(['l.id as location_id', 'l.name as location_name', 'g.id as group_id', 'g.name as group_name'])
    .where('d.id', '=', id)
    .executeTakeFirst();
  return {
    location: row?.location_id && row.location_name !== null ? { id: row.location_id, name: row.location_name } : null,
    group: row?.group_id && row.group_name !== null ? { id: row.group_id, name: row.group_name } : null,
  };
}
