import type { AlarmType, OpenAlarm, OpenAlarmCounts } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { TenantScope } from '../../lib/tenant-scope';
import { alarmTypeName } from '../alarms/format';

/** Open alarms (aliased `a`) with their device (`d`). */
function openAlarms(db: Db) {
  return db.selectFrom('alarms as a').innerJoin('devices as d', 'd.id', 'a.device_id').where('a.active', '=', true);
}

/** Open alarms of the devices a scope may see, as GET /api/beacon-device does (devices/repository.ts, devicesInScope). */
function openAlarmsInScope(db: Db, scope: TenantScope) {
  const query = openAlarms(db);
  switch (scope.kind) {
    case 'all':
      return query;
    case 'enterprise':
      return query.where('d.enterprise_id', '=', scope.enterpriseId);
    case 'user':
      return query.where(({ exists, selectFrom }) =>
        exists(selectFrom('device_users as du').select('du.device_id').whereRef('du.device_id', '=', 'd.id').where('du.user_id', '=', scope.userId)),
      );
  }
}

const toCounts = (row: { count: string | number | bigint; unacknowledged: string | number | bigint } | undefined): OpenAlarmCounts => ({
  count: Number(row?.count ?? 0),
  unacknowledged: Number(row?.unacknowledged ?? 0),
});

export const NO_OPEN_ALARMS: OpenAlarmCounts = { count: 0, unacknowledged: 0 };

/** The open alarms a scope may see: how many, and how many nobody acknowledged. */
export async function countOpenAlarms(db: Db, scope: TenantScope): Promise<OpenAlarmCounts> {
  const row = await openAlarmsInScope(db, scope)
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.countAll<string>().filterWhere('a.acknowledged_at', 'is', null).as('unacknowledged')])
    .executeTakeFirst();
  return toCounts(row);
}

/** The same counts for each of these enterprises (their administrators' scope), in one query. */
export async function countOpenAlarmsByEnterprise(db: Db, enterpriseIds: readonly string[]): Promise<Map<string, OpenAlarmCounts>> {
  if (enterpriseIds.length === 0) return new Map();
  const rows = await openAlarms(db)
    .select((eb) => ['d.enterprise_id', eb.fn.countAll<string>().as('count'), eb.fn.countAll<string>().filterWhere('a.acknowledged_at', 'is', null).as('unacknowledged')])
    .where('d.enterprise_id', 'in', [...enterpriseIds])
    .groupBy('d.enterprise_id')
    .execute();
  const result = new Map<string, OpenAlarmCounts>(enterpriseIds.map((id) => [id, NO_OPEN_ALARMS]));
  for (const row of rows) if (row.enterprise_id) result.set(row.enterprise_id, toCounts(row));
  return result;
}

/** The same counts for each of these users over the devices linked to them (their scope), in one query. */
export async function countOpenAlarmsByUser(db: Db, userIds: readonly string[]): Promise<Map<string, OpenAlarmCounts>> {
  if (userIds.length === 0) return new Map();
  const rows = await openAlarms(db)
    .innerJoin('device_users as du', 'du.device_id', 'a.device_id')
    .select((eb) => ['du.user_id', eb.fn.countAll<string>().as('count'), eb.fn.countAll<string>().filterWhere('a.acknowledged_at', 'is', null).as('unacknowledged')])
    .where('du.user_id', 'in', [...userIds])
    .groupBy('du.user_id')
    .execute();
  const result = new Map<string, OpenAlarmCounts>(userIds.map((id) => [id, NO_OPEN_ALARMS]));
  for (const row of rows) result.set(row.user_id, toCounts(row));
  return result;
}

/** The newest open alarms a scope may see, with their device and travel. */
export async function listOpenAlarms(db: Db, scope: TenantScope, limit: number): Promise<OpenAlarm[]> {
  const rows = await openAlarmsInScope(db, scope)
      .leftJoin('travels as t', 't.id', 'a.travel_id')
      .leftJoin('travel_devices as td', (join) => join.onRef('td.travel_id', '=', 'a.travel_id').onRef('td.device_id', '=', 'a.device_id'))
      .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
      .select([
        'a.id', 'a.type', 'a.message', 'a.started_at', 'a.acknowledged_at', 'a.acknowledged_by', 'a.acknowledge_message',
        'u.name as acknowledged_by_name', 'd.id as device_id', 'd.mac', 'd.name as device_name', 'td.name as travel_device_name',
        't.id as travel_id', 't.code as travel_code', 't.origin_address', 't.destiny_address',
      ])
    .orderBy('a.started_at', 'desc')
    .orderBy('a.id')
    .limit(limit)
    .execute();
  return rows.map(toOpenAlarm);
}

interface OpenAlarmRow {
  id: string;
  type: string;
  message: string;
  started_at: Date;
  acknowledged_at: Date | null;
  acknowledged_by: string | null;
  acknowledge_message: string | null;
  acknowledged_by_name: string | null;
  device_id: string;
  mac: string;
  device_name: string;
  travel_device_name: string | null;
  travel_id: string | null;
  travel_code: string | null;
  origin_address: string | null;
  destiny_address: string | null;
}

function toOpenAlarm(row: OpenAlarmRow): OpenAlarm {
  return {
    _id: row.id,
    date: row.started_at.toISOString(),
    message: row.message,
    type: row.type as AlarmType,
    type_formatted: alarmTypeName(row.type),
    device: { _id: row.device_id, mac: row.mac, name: row.travel_device_name || row.device_name },
    travel:
      row.travel_id && row.travel_code
        ? { _id: row.travel_id, code: row.travel_code, origin_address: row.origin_address ?? '', destiny_address: row.destiny_address ?? '' }
        : null,
    acknowledge: row.acknowledged_at
      ? {
          message: row.acknowledge_message ?? '',
          date: row.acknowledged_at.toISOString(),
          user: row.acknowledged_by && row.acknowledged_by_name ? { _id: row.acknowledged_by, name: row.acknowledged_by_name } : null,
        }
      : null,
  };
}

/** The MAC of each of these devices (what the pages that show a device know it by). */
export async function macsOfDevices(db: Db, deviceIds: readonly string[]): Promise<Map<string, string>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db.selectFrom('devices').select(['id', 'mac']).where('id', 'in', [...deviceIds]).execute();
  return new Map(rows.map((r) => [r.id, r.mac]));
}

/** The users linked to each of these devices. */
export async function usersOfDevices(db: Db, deviceIds: readonly string[]): Promise<{ device_id: string; user_id: string }[]> {
  if (deviceIds.length === 0) return [];
  return db.selectFrom('device_users').select(['device_id', 'user_id']).where('device_id', 'in', [...deviceIds]).execute();
}
