import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { TravelDevicesTable, TravelsTable } from '../../db/schema';
import type { TenantScope } from '../../lib/tenant-scope';
import { TravelStatus } from '@sentinela/contract';
import { expectedIntervalSql } from '../readings/expected-interval';

/** The SQL of travels. Reads of tenant data take a TenantScope; a travel outside it is simply absent. */

function travelQuery(db: Db) {
  return db
    .selectFrom('travels as t')
    .leftJoin('users as u', 'u.id', 't.responsible_user_id')
    .leftJoin('enterprises as e', 'e.id', 't.enterprise_id')
    .select([
      't.id', 't.code', 't.status', 't.enterprise_id', 'e.name as enterprise_name', 't.responsible_user_id', 'u.name as responsible_name',
      't.origin_address', 't.origin_lat', 't.origin_lng', 't.destiny_address', 't.destiny_lat', 't.destiny_lng',
      't.last_lat', 't.last_lng', 't.created_at', 't.started_at', 't.finished_at',
      't.code_scope', 't.code_expires_at', 't.code_revoked_at', 't.code_lookups', 't.code_last_lookup_at',
    ]);
}

export type TravelRow = Awaited<ReturnType<ReturnType<typeof travelQuery>['executeTakeFirstOrThrow']>>;

/**
 * Restricts a travels query (aliased `t`) to the scope: the super admin sees all; an enterprise admin its
 * enterprise's; anyone else the travels of their enterprise they are responsible for or that carry a device
 * linked to them.
 */
function travelsInScope<Q extends ReturnType<typeof travelQuery>>(query: Q, scope: TenantScope): Q {
  switch (scope.kind) {
    case 'all':
      return query;
    case 'enterprise':
      return query.where('t.enterprise_id', '=', scope.enterpriseId) as Q;
    case 'user': {
      if (!scope.enterpriseId) return query.where(sql<boolean>`false`) as Q;
      return query.where('t.enterprise_id', '=', scope.enterpriseId).where(({ or, eb, exists, selectFrom }) =>
        or([
          eb('t.responsible_user_id', '=', scope.userId),
          exists(
            selectFrom('travel_devices as td')
              .innerJoin('device_users as du', 'du.device_id', 'td.device_id')
              .select('td.device_id')
              .whereRef('td.travel_id', '=', 't.id')
              .where('du.user_id', '=', scope.userId),
          ),
        ]),
      ) as Q;
    }
  }
}

export async function listTravelsInScope(db: Db, scope: TenantScope, page: { offset: number; limit: number }): Promise<{ rows: TravelRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    travelsInScope(travelQuery(db), scope).orderBy('t.created_at', 'desc').orderBy('t.id').offset(page.offset).limit(page.limit).execute(),
    travelsInScope(travelQuery(db), scope).clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function findTravelInScope(db: Db, scope: TenantScope, id: string): Promise<TravelRow | undefined> {
  return travelsInScope(travelQuery(db), scope).where('t.id', '=', id).executeTakeFirst();
}

/** Whether the scope sees the travel, without reading it (Socket.IO room checks). */
export async function isTravelInScope(db: Db, scope: TenantScope, id: string): Promise<boolean> {
  const row = await travelsInScope(travelQuery(db), scope).clearSelect().select('t.id').where('t.id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function findTravelByCode(db: Db, code: string): Promise<TravelRow | undefined> {
  return travelQuery(db).where('t.code', '=', code).executeTakeFirst();
}

/** A code that was replaced or revoked (ADR 36): its holders are told so, not "not found". */
export async function findRevokedCode(db: Db, code: string): Promise<{ travel_id: string } | undefined> {
  return db.selectFrom('travel_revoked_codes').select('travel_id').where('code', '=', code).executeTakeFirst();
}

/** Whether a code was ever given to a travel, current or revoked (a new code must be neither). */
export async function codeEverUsed(db: Db, code: string): Promise<boolean> {
  const [current, revoked] = await Promise.all([
    db.selectFrom('travels').select('id').where('code', '=', code).executeTakeFirst(),
    findRevokedCode(db, code),
  ]);
  return current !== undefined || revoked !== undefined;
}

export async function insertRevokedCode(db: Db, row: { code: string; travel_id: string; revoked_at: Date }): Promise<void> {
  await db.insertInto('travel_revoked_codes').values(row).onConflict((oc) => oc.column('code').doNothing()).execute();
}

/** One more lookup of a travel's code (counted in the database: several API processes answer the same code). */
export async function recordCodeLookup(db: Db, id: string, at: Date): Promise<void> {
  await db
    .updateTable('travels')
    .set((eb) => ({ code_lookups: eb('code_lookups', '+', 1), code_last_lookup_at: at }))
    .where('id', '=', id)
    .execute();
}

export interface TravelDeviceRow {
  travel_id: string;
  device_id: string;
  device_num: number;
  name: string;
  mac: string;
  battery: number | null;
  temperature: number | null;
  humidity: number | null;
  last_update: Date | null;
  expected_interval_seconds: number | null;
  temperature_min: number | null;
  temperature_max: number | null;
  humidity_min: number | null;
  humidity_max: number | null;
}

/**
 * The device cards of several travels in one statement (the live feed asks for every travel of a batch at
 * once). A card shows the travel's own name and limits where set, else the device's. While a travel has not
 * finished, its cards show the devices' last state; a finished travel shows each device's last reading
 * within it (the LATERAL runs only for finished travels: its WHERE starts with the travel's status).
 */
export async function travelDeviceRows(db: Db, travelIds: readonly string[]): Promise<TravelDeviceRow[]> {
  if (travelIds.length === 0) return [];
  const result = await sql<TravelDeviceRow>`
    SELECT td.travel_id, d.id AS device_id, d.num AS device_num, coalesce(td.name, d.name) AS name, d.mac,
      CASE WHEN t.status = ${TravelStatus.Finished} THEN f.battery ELSE d.last_battery END AS battery,
      CASE WHEN t.status = ${TravelStatus.Finished} THEN f.temperature ELSE d.last_temperature END AS temperature,
      CASE WHEN t.status = ${TravelStatus.Finished} THEN f.humidity ELSE d.last_humidity END AS humidity,
      CASE WHEN t.status = ${TravelStatus.Finished} THEN f.ts ELSE d.last_sync_at END AS last_update,
      ${expectedIntervalSql('d')} AS expected_interval_seconds,
      coalesce(td.temperature_min, d.temperature_min) AS temperature_min,
      coalesce(td.temperature_max, d.temperature_max) AS temperature_max,
      coalesce(td.humidity_min, d.humidity_min) AS humidity_min,
      coalesce(td.humidity_max, d.humidity_max) AS humidity_max
    FROM travel_devices td
    JOIN travels t ON t.id = td.travel_id
    JOIN devices d ON d.id = td.device_id
    LEFT JOIN LATERAL (
      SELECT r.ts, r.temperature, r.humidity, r.battery
      FROM readings r
      WHERE t.status = ${TravelStatus.Finished} AND r.device_num = d.num AND r.travel_id = t.id
        AND r.ts >= t.started_at AND r.ts <= t.finished_at
      ORDER BY r.ts DESC
      LIMIT 1
    ) f ON true
    WHERE td.travel_id = ANY(${sql.val([...travelIds])}::uuid[])
    ORDER BY td.travel_id, d.mac`.execute(db);
  return result.rows;
}

/** A device of a travel, by MAC (history of a card). */
export async function findTravelDeviceByMac(db: Db, travelId: string, mac: string): Promise<{ device_id: string; num: number; mac: string } | undefined> {
  return db
    .selectFrom('travel_devices as td')
    .innerJoin('devices as d', 'd.id', 'td.device_id')
    .select(['td.device_id', 'd.num', 'd.mac'])
    .where('td.travel_id', '=', travelId)
    .where('d.mac', '=', mac)
    .executeTakeFirst();
}

export interface TravelReadingRow {
  ts: Date;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
}

/**
 * A device's readings within a travel, the newest `limit` of them, oldest first. Bounded by the travel's span
 * so that only its months' partitions are read, through the (device, time) key.
 */
export async function travelDeviceReadings(
  db: Db,
  travel: { id: string; started_at: Date; finished_at: Date | null },
  deviceNum: number,
  limit: number,
): Promise<TravelReadingRow[]> {
  let query = db
    .selectFrom('readings')
    .select(['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng'])
    .where('device_num', '=', deviceNum)
    .where('travel_id', '=', travel.id)
    .where('ts', '>=', travel.started_at);
  if (travel.finished_at) query = query.where('ts', '<=', travel.finished_at);
  const rows = await query.orderBy('ts', 'desc').limit(limit).execute();
  return rows.reverse();
}

export interface TravelPointRow {
  ts: Date;
  lat: number;
  lng: number;
  mac: string;
}

/**
 * The travelled path: the positions of the travel's readings, oldest first, keeping a point only where the
 * position changed (a parked truck reports the same place for hours). Above `max` points it is thinned
 * evenly, always keeping the first and the last, so a week-long travel still draws in one answer.
 */
export async function travelPath(db: Db, travel: { id: string; started_at: Date; finished_at: Date | null }, max: number): Promise<TravelPointRow[]> {
  const until = travel.finished_at ? sql`AND r.ts <= ${travel.finished_at}` : sql``;
  const result = await sql<TravelPointRow>`
    WITH points AS (
      SELECT r.ts, r.device_num, r.lat, r.lng,
        lag(r.lat) OVER w AS prev_lat, lag(r.lng) OVER w AS prev_lng
      FROM readings r
      WHERE r.travel_id = ${travel.id} AND r.ts >= ${travel.started_at} ${until}
        AND r.lat IS NOT NULL AND r.lng IS NOT NULL
      WINDOW w AS (ORDER BY r.ts, r.device_num)
    ), moves AS (
      SELECT ts, device_num, lat, lng, row_number() OVER (ORDER BY ts, device_num) AS n, count(*) OVER () AS total
      FROM points
      WHERE prev_lat IS NULL OR prev_lat <> lat OR prev_lng <> lng
    )
    SELECT m.ts, m.lat, m.lng, d.mac
    FROM moves m JOIN devices d ON d.num = m.device_num
    WHERE m.total <= ${max} OR (m.n - 1) % ceil(m.total::float8 / ${max})::int = 0 OR m.n = m.total
    ORDER BY m.ts, m.device_num`.execute(db);
  return result.rows;
}

// --- Writes (inside the service's transactions) ---

export interface LockedTravel {
  id: string;
  status: number;
  enterprise_id: string | null;
  started_at: Date | null;
  code: string;
  origin_address: string;
  destiny_address: string;
}

/** Locks a travel row for a change of status or devices, so two changes of one travel queue. */
export async function lockTravel(db: Db, id: string): Promise<LockedTravel | undefined> {
  return db
    .selectFrom('travels')
    .select(['id', 'status', 'enterprise_id', 'started_at', 'origin_address', 'destiny_address', 'code'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export interface LockedDevice {
  id: string;
  num: number;
  name: string;
  enterprise_id: string | null;
  temperature_min: number | null;
  temperature_max: number | null;
  humidity_min: number | null;
  humidity_max: number | null;
}

/**
 * Locks the devices a travel is about to carry. In device-number order, like ingestion, so neither deadlocks
 * the other; and two travels claiming the same device queue here, the second then seeing the first.
 */
export async function lockDevices(db: Db, ids: readonly string[]): Promise<LockedDevice[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('devices')
    .select(['id', 'num', 'name', 'enterprise_id', 'temperature_min', 'temperature_max', 'humidity_min', 'humidity_max'])
    .where('id', 'in', [...ids])
    .orderBy('num')
    .forUpdate()
    .execute();
}

/** Of the given devices, those linked to the user. */
export async function devicesLinkedTo(db: Db, userId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('device_users').select('device_id').where('user_id', '=', userId).where('device_id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.device_id));
}

/** Of the given devices, those carried by another travel in progress or paused. */
/**
 * The devices of `ids` carried by another travel in progress (status 1), with that travel: ingestion gives a reading
 * to the one travel in progress that carries its device, so a device may be in progress on one travel at a time.
 * Travels not started or paused may share devices (issue 26: plans and paused legs).
 */
export async function devicesRunningElsewhere(
  db: Db,
  ids: readonly string[],
  exceptTravelId: string | null,
): Promise<Map<string, { travelId: string; enterpriseId: string | null; origin: string; destiny: string }>> {
  if (ids.length === 0) return new Map();
  let query = db
    .selectFrom('travel_devices as td')
    .innerJoin('travels as t', 't.id', 'td.travel_id')
    .select(['td.device_id', 't.id', 't.enterprise_id', 't.origin_address', 't.destiny_address'])
    .where('t.status', '=', TravelStatus.InProgress)
    .where('td.device_id', 'in', [...ids]);
  if (exceptTravelId) query = query.where('t.id', '<>', exceptTravelId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.device_id, { travelId: r.id, enterpriseId: r.enterprise_id, origin: r.origin_address, destiny: r.destiny_address }]));
}

/** The travel's devices (ids), for checks before a change. */
export async function travelDeviceIds(db: Db, travelId: string): Promise<string[]> {
  const rows = await db.selectFrom('travel_devices').select('device_id').where('travel_id', '=', travelId).execute();
  return rows.map((r) => r.device_id);
}

/** A user of the enterprise (a travel's responsible), active or not. */
export async function findUserOfEnterprise(db: Db, userId: string, enterpriseId: string): Promise<{ id: string; disabled: boolean } | undefined> {
  return db.selectFrom('users').select(['id', 'disabled']).where('id', '=', userId).where('enterprise_id', '=', enterpriseId).executeTakeFirst();
}

export async function insertTravel(db: Db, values: Insertable<TravelsTable>): Promise<string> {
  const row = await db.insertInto('travels').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTravel(db: Db, id: string, changes: Updateable<TravelsTable>): Promise<void> {
  await db.updateTable('travels').set(changes).where('id', '=', id).execute();
}

export async function insertTravelDevices(db: Db, rows: readonly Insertable<TravelDevicesTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('travel_devices').values([...rows]).execute();
}

export async function deleteTravelDevices(db: Db, travelId: string, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await db.deleteFrom('travel_devices').where('travel_id', '=', travelId).where('device_id', 'in', [...deviceIds]).execute();
}

export type TravelDeviceSettings = Pick<Updateable<TravelDevicesTable>, 'name' | 'temperature_min' | 'temperature_max' | 'humidity_min' | 'humidity_max'>;

export async function updateTravelDevice(db: Db, travelId: string, deviceId: string, settings: TravelDeviceSettings): Promise<void> {
  await db.updateTable('travel_devices').set(settings).where('travel_id', '=', travelId).where('device_id', '=', deviceId).execute();
}

/** A travel device's own settings (not merged with the device's), locked for an edit. */
export async function lockTravelDevice(db: Db, travelId: string, deviceId: string) {
  return db
    .selectFrom('travel_devices as td')
    .innerJoin('devices as d', 'd.id', 'td.device_id')
    .select([
      'td.name', 'td.temperature_min', 'td.temperature_max', 'td.humidity_min', 'td.humidity_max', 'd.name as device_name',
      'd.temperature_min as device_temperature_min', 'd.temperature_max as device_temperature_max',
      'd.humidity_min as device_humidity_min', 'd.humidity_max as device_humidity_max',
    ])
    .where('td.travel_id', '=', travelId)
    .where('td.device_id', '=', deviceId)
    .forUpdate(['td'])
    .executeTakeFirst();
}
