import { sql } from 'kysely';
import { API_VERSION } from '@sentinela/contract';
import type { Db } from '../db/database';
import { numberArray, textArray } from '../lib/pg-arrays';

/** The SQL of the ingestion hot path: each function is one statement for a whole batch. */

export interface GatewayRow {
  id: string;
  enterprise_id: string | null;
  revoked_at: Date | null;
  last_seen_at: Date | null;
}

export async function findGatewayByKeyHash(db: Db, keyHash: Buffer): Promise<GatewayRow | undefined> {
  return db.selectFrom('gateways').select(['id', 'enterprise_id', 'revoked_at', 'last_seen_at']).where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function touchGateway(db: Db, gatewayId: string, at: Date): Promise<void> {
  await db.updateTable('gateways').set({ last_seen_at: at }).where('id', '=', gatewayId).execute();
}

export interface DeviceForGateway {
  mac: string;
  gateway_id: string;
  device_id: string;
  num: number;
  gateway_active: boolean;
  /** Linked to the gateway, or in the gateway's enterprise. */
  allowed: boolean;
  travel_id: string | null;
  travel_started_at: Date | null;
  travel_temperature_min: number | null;
  travel_temperature_max: number | null;
  travel_humidity_min: number | null;
  travel_humidity_max: number | null;
  /** The device's row, locked for the transaction: null unless the gateway may write the device (allowed, active). */
  state: DeviceStateRow | null;
}

export interface DeviceStateRow {
  id: string;
  num: number;
  mac: string;
  enterprise_id: string | null;
  last_sync_at: Date | null;
  last_temperature: number | null;
  last_humidity: number | null;
  last_battery: number | null;
  last_lat: number | null;
  last_lng: number | null;
  temperature_min: number | null;
  temperature_max: number | null;
  humidity_min: number | null;
  humidity_max: number | null;
  out_of_range_minutes: number;
  learned_interval_seconds: number | null;
  /** The firmware version the device last reported (D7); a batch writes it only when it changes. */
  firmware_version: string | null;
}

type LookupRow = Omit<DeviceForGateway, 'state'> & Omit<DeviceStateRow, 'id' | 'num' | 'mac'> & { locked: boolean };

/**
 * For each (MAC, gateway) of a batch, in one statement inside the batch's transaction (ADR 46): the device, whether
 * the gateway may write it, the travel in progress it belongs to (with the travel's own limits), and — for the
 * devices the gateway may write, and only those — the device's row locked FOR UPDATE with its last state and limits.
 * Unknown MACs are simply absent; another enterprise's device is found (to answer like an unknown one) but never
 * locked, so a gateway cannot make another tenant's batches wait. One order for every writer (device number), so
 * that concurrent batches queue instead of deadlocking; a row a concurrent batch changed is returned as that batch
 * committed it. Plain joins (no per-row subqueries): it runs for every batch, over up to thousands of devices. The
 * devices to lock are an array (`= ANY(ARRAY(…))`), read in number order from their index: with `IN (SELECT …)` the
 * planner joined the two CTEs by a nested loop, quadratic in the batch's devices.
 */
export async function lookUpAndLockDevices(db: Db, pairs: readonly { mac: string; gatewayId: string }[]): Promise<DeviceForGateway[]> {
  const result = await sql<LookupRow>`
    WITH found AS MATERIALIZED (
      SELECT p.mac, p.gateway_id, d.id AS device_id, d.num,
        (g.revoked_at IS NULL) AS gateway_active,
        (gd.device_id IS NOT NULL OR (g.enterprise_id IS NOT NULL AND g.enterprise_id = d.enterprise_id)) AS allowed,
        tr.travel_id, tr.started_at AS travel_started_at,
        tr.temperature_min AS travel_temperature_min, tr.temperature_max AS travel_temperature_max,
        tr.humidity_min AS travel_humidity_min, tr.humidity_max AS travel_humidity_max
      FROM unnest(${textArray(pairs.map((p) => p.mac))}::text[], ${textArray(pairs.map((p) => p.gatewayId))}::uuid[]) AS p(mac, gateway_id)
      JOIN devices d ON d.mac = p.mac
      JOIN gateways g ON g.id = p.gateway_id
      LEFT JOIN gateway_devices gd ON gd.gateway_id = p.gateway_id AND gd.device_id = d.id
      LEFT JOIN (
        SELECT DISTINCT ON (td.device_id) td.device_id, t.id AS travel_id, t.started_at,
          td.temperature_min, td.temperature_max, td.humidity_min, td.humidity_max
        FROM travels t JOIN travel_devices td ON td.travel_id = t.id
        WHERE t.status = 1
        ORDER BY td.device_id, t.started_at DESC NULLS LAST
      ) tr ON tr.device_id = d.id
    ), locked AS MATERIALIZED (
      SELECT num, enterprise_id, last_sync_at, last_temperature, last_humidity, last_battery, last_lat, last_lng,
        temperature_min, temperature_max, humidity_min, humidity_max, out_of_range_minutes, learned_interval_seconds, firmware_version
      FROM devices WHERE num = ANY(ARRAY(SELECT num FROM found WHERE allowed AND gateway_active)) ORDER BY num FOR UPDATE
    )
    SELECT f.*, l.num IS NOT NULL AS locked, l.enterprise_id, l.last_sync_at, l.last_temperature, l.last_humidity,
      l.last_battery, l.last_lat, l.last_lng, l.temperature_min, l.temperature_max, l.humidity_min, l.humidity_max,
      l.out_of_range_minutes, l.learned_interval_seconds, l.firmware_version
    FROM found f LEFT JOIN locked l ON l.num = f.num`.execute(db);
  return result.rows.map((r) => ({
    mac: r.mac, gateway_id: r.gateway_id, device_id: r.device_id, num: r.num, gateway_active: r.gateway_active, allowed: r.allowed,
    travel_id: r.travel_id, travel_started_at: r.travel_started_at,
    travel_temperature_min: r.travel_temperature_min, travel_temperature_max: r.travel_temperature_max,
    travel_humidity_min: r.travel_humidity_min, travel_humidity_max: r.travel_humidity_max,
    state: r.locked
      ? {
          id: r.device_id, num: r.num, mac: r.mac, enterprise_id: r.enterprise_id, last_sync_at: r.last_sync_at,
          last_temperature: r.last_temperature, last_humidity: r.last_humidity, last_battery: r.last_battery,
          last_lat: r.last_lat, last_lng: r.last_lng, temperature_min: r.temperature_min, temperature_max: r.temperature_max,
          humidity_min: r.humidity_min, humidity_max: r.humidity_max, out_of_range_minutes: r.out_of_range_minutes,
          learned_interval_seconds: r.learned_interval_seconds, firmware_version: r.firmware_version,
        }
      : null,
  }));
}

export interface AlarmStateRow {
  device_id: string;
  /** An active alarm, or an excursion waiting for out_of_range_minutes. */
  kind: 'alarm' | 'excursion';
  id: string | null;
  type: string;
  started_at: Date;
  last_at: Date | null;
  temperature_min: number | null;
  temperature_max: number | null;
  humidity_min: number | null;
  humidity_max: number | null;
}

export interface LastStateUpdate {
  num: number;
  /** The device's id, whose alarm state is read in the same statement. */
  deviceId: string;
  ts: string;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
  /** ADR 0035: the interval learned from the device's readings, in seconds. */
  learnedInterval: number | null;
}

/**
 * One statement for the (locked) devices a batch moved forward (ADR 46): their new last state, and their active
 * alarms and pending excursions. The read is in a statement after the lock, so its snapshot includes whatever the
 * previous holder of a device's lock committed; the update (a data-modifying CTE) runs whole whether or not its
 * rows are read.
 */
export async function updateLastStatesReadAlarms(db: Db, rows: readonly LastStateUpdate[]): Promise<AlarmStateRow[]> {
  if (rows.length === 0) return [];
  const ids = textArray(rows.map((r) => r.deviceId));
  const result = await sql<AlarmStateRow>`
    WITH moved AS (
      UPDATE devices d SET last_sync_at = u.ts, last_temperature = u.temperature, last_humidity = u.humidity,
        last_battery = u.battery, last_lat = u.lat, last_lng = u.lng, learned_interval_seconds = u.learned
      FROM unnest(${numberArray(rows.map((r) => r.num))}::int[], ${textArray(rows.map((r) => r.ts))}::timestamptz[],
        ${numberArray(rows.map((r) => r.temperature))}::real[], ${numberArray(rows.map((r) => r.humidity))}::real[],
        ${numberArray(rows.map((r) => r.battery))}::real[], ${numberArray(rows.map((r) => r.lat))}::float8[],
        ${numberArray(rows.map((r) => r.lng))}::float8[], ${numberArray(rows.map((r) => r.learnedInterval))}::real[])
        AS u(num, ts, temperature, humidity, battery, lat, lng, learned)
      WHERE d.num = u.num
    )
    SELECT device_id, 'alarm' AS kind, id, type, started_at, NULL::timestamptz AS last_at,
      temperature_min, temperature_max, humidity_min, humidity_max
    FROM alarms WHERE active AND device_id = ANY(${ids}::uuid[])
    UNION ALL
    SELECT device_id, 'excursion', NULL, type, started_at, last_at, temperature_min, temperature_max, humidity_min, humidity_max
    FROM alarm_excursions WHERE device_id = ANY(${ids}::uuid[])`.execute(db);
  return result.rows;
}

export async function updateTravelPositions(db: Db, rows: readonly { travelId: string; lat: number; lng: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    UPDATE travels t SET last_lat = u.lat, last_lng = u.lng
    FROM unnest(${textArray(rows.map((r) => r.travelId))}::uuid[], ${numberArray(rows.map((r) => r.lat))}::float8[],
      ${numberArray(rows.map((r) => r.lng))}::float8[]) AS u(id, lat, lng)
    WHERE t.id = u.id`.execute(db);
}

export interface RejectionCount {
  gatewayId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  reason: string;
  count: number;
  lastMac: string | null;
}

/** Adds to the per gateway, day and reason rejection counters (rows must be unique per key). */
export async function addRejectionCounts(db: Db, rows: readonly RejectionCount[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO ingest_rejections (gateway_id, day, reason, count, last_mac, last_at)
    SELECT u.gateway_id, u.day, u.reason, u.count, u.last_mac, ${at.toISOString()}::timestamptz
    FROM unnest(${textArray(rows.map((r) => r.gatewayId))}::uuid[], ${textArray(rows.map((r) => r.day))}::date[],
      ${textArray(rows.map((r) => r.reason))}::text[], ${numberArray(rows.map((r) => r.count))}::bigint[],
      ${textArray(rows.map((r) => r.lastMac))}::text[]) AS u(gateway_id, day, reason, count, last_mac)
    ON CONFLICT (gateway_id, day, reason) DO UPDATE
      SET count = ingest_rejections.count + excluded.count, last_mac = excluded.last_mac, last_at = excluded.last_at`.execute(db);
}

/** A MAC no device has, as one batch saw it (ADR 18). */
export interface DiscoveredCount {
  mac: string;
  /** The gateway of its newest reading in the batch. */
  gatewayId: string;
  count: number;
  firstMs: number;
  lastMs: number;
}

/**
 * Adds a batch's unknown MACs to the discovered list: one statement, rows in MAC order (concurrent batches then
 * queue on the same rows instead of deadlocking). The times are the readings' own (already validated instants).
 */
export async function addDiscoveredDevices(db: Db, rows: readonly DiscoveredCount[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0));
  await sql`
    INSERT INTO discovered_devices (mac, first_seen_at, last_seen_at, last_gateway_id, reading_count)
    SELECT u.mac, u.first_at, u.last_at, u.gateway_id, u.count
    FROM unnest(${textArray(sorted.map((r) => r.mac))}::text[], ${textArray(sorted.map((r) => new Date(r.firstMs).toISOString()))}::timestamptz[],
      ${textArray(sorted.map((r) => new Date(r.lastMs).toISOString()))}::timestamptz[], ${textArray(sorted.map((r) => r.gatewayId))}::uuid[],
      ${numberArray(sorted.map((r) => r.count))}::bigint[]) AS u(mac, first_at, last_at, gateway_id, count)
    ON CONFLICT (mac) DO UPDATE SET
      first_seen_at = least(discovered_devices.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(discovered_devices.last_seen_at, excluded.last_seen_at),
      last_gateway_id = CASE WHEN excluded.last_seen_at >= discovered_devices.last_seen_at THEN excluded.last_gateway_id ELSE discovered_devices.last_gateway_id END,
      reading_count = discovered_devices.reading_count + excluded.reading_count`.execute(db);
}

/** A firmware version a device reported that differs from the one it had (D7, issue 26). */
export interface FirmwareChange {
  deviceId: string;
  from: string | null;
  to: string;
  at: Date;
}

/**
 * The devices whose reported firmware changed in a batch (rare: most batches have none, and then this is not called):
 * the new version on the device, and a "Firmware" device event each, in two statements whatever their number.
 */
export async function recordFirmwareChanges(db: Db, changes: readonly FirmwareChange[]): Promise<void> {
  if (changes.length === 0) return;
  await sql`
    UPDATE devices d SET firmware_version = u.version
    FROM unnest(${textArray(changes.map((c) => c.deviceId))}::uuid[], ${textArray(changes.map((c) => c.to))}::text[]) AS u(id, version)
    WHERE d.id = u.id`.execute(db);
  await db
    .insertInto('device_events')
    .values(
      changes.map((c) => ({
        device_id: c.deviceId,
        type: 'firmware',
        message: c.from === null ? `Firmware ${c.to} informado pelo dispositivo` : `Firmware ${c.to} informado pelo dispositivo (antes: ${c.from})`,
        user_id: null,
        // Told by the device through its gateway, not by a person on a screen.
        client: 'gateway',
        client_version: null,
        client_os: null,
        api_version: API_VERSION,
        created_at: c.at,
      })),
    )
    .execute();
}
