import { sql } from 'kysely';
import type { AlarmType } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { numberArray, textArray } from '../../lib/pg-arrays';
import type { Observed, PendingExcursion } from './evaluator';

export interface NewAlarm {
  deviceId: string;
  travelId: string | null;
  type: AlarmType;
  message: string;
  startedAt: Date;
  endedAt: Date | null;
  observed: Observed;
}

export interface InsertedAlarm {
  id: string;
  device_id: string;
  travel_id: string | null;
  type: AlarmType;
  active: boolean;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Inserts alarms and, in the same statement, one `alarm.opened` domain event each for the notifications
 * worker. An alarm already active for the device and type is left alone (ON CONFLICT), never doubled.
 */
export async function insertAlarms(db: Db, alarms: readonly NewAlarm[], at: Date): Promise<InsertedAlarm[]> {
  if (alarms.length === 0) return [];
  const col = <T>(pick: (a: NewAlarm) => T) => alarms.map(pick);
  const result = await sql<InsertedAlarm>`
    WITH opened AS (
      INSERT INTO alarms (device_id, travel_id, type, message, started_at, ended_at, active,
        temperature_min, temperature_max, humidity_min, humidity_max, created_at)
      SELECT u.device_id, u.travel_id, u.type, u.message, u.started_at, u.ended_at, u.ended_at IS NULL,
        u.tmin, u.tmax, u.hmin, u.hmax, ${at.toISOString()}::timestamptz
      FROM unnest(${textArray(col((a) => a.deviceId))}::uuid[], ${textArray(col((a) => a.travelId))}::uuid[],
        ${textArray(col((a) => a.type))}::text[], ${textArray(col((a) => a.message))}::text[],
        ${textArray(col((a) => a.startedAt.toISOString()))}::timestamptz[], ${textArray(col((a) => iso(a.endedAt)))}::timestamptz[],
        ${numberArray(col((a) => a.observed.temperatureMin))}::real[], ${numberArray(col((a) => a.observed.temperatureMax))}::real[],
        ${numberArray(col((a) => a.observed.humidityMin))}::real[], ${numberArray(col((a) => a.observed.humidityMax))}::real[])
        AS u(device_id, travel_id, type, message, started_at, ended_at, tmin, tmax, hmin, hmax)
      ON CONFLICT (device_id, type) WHERE active DO NOTHING
      RETURNING id, device_id, travel_id, type, message, started_at, ended_at, active
    ), events AS (
      INSERT INTO domain_events (kind, payload, created_at)
      SELECT 'alarm.opened', jsonb_build_object('alarm_id', o.id, 'device_id', o.device_id, 'mac', d.mac,
          'device_name', d.name, 'enterprise_id', d.enterprise_id, 'travel_id', o.travel_id, 'type', o.type,
          'message', o.message, 'started_at', o.started_at, 'ended_at', o.ended_at, 'active', o.active),
        ${at.toISOString()}::timestamptz
      FROM opened o JOIN devices d ON d.id = o.device_id
    )
    SELECT id, device_id, travel_id, type, active FROM opened`.execute(db);
  return result.rows;
}

export interface AlarmRowUpdate {
  id: string;
  observed: Observed;
  endedAt: Date | null;
}

/** Updates the observed extremes of alarms and closes those whose excursion ended. */
export async function updateAlarms(db: Db, rows: readonly AlarmRowUpdate[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(pick: (a: AlarmRowUpdate) => T) => rows.map(pick);
  await sql`
    UPDATE alarms a SET temperature_min = u.tmin, temperature_max = u.tmax, humidity_min = u.hmin,
      humidity_max = u.hmax, ended_at = u.ended_at, active = u.ended_at IS NULL
    FROM unnest(${textArray(col((r) => r.id))}::uuid[],
      ${numberArray(col((r) => r.observed.temperatureMin))}::real[], ${numberArray(col((r) => r.observed.temperatureMax))}::real[],
      ${numberArray(col((r) => r.observed.humidityMin))}::real[], ${numberArray(col((r) => r.observed.humidityMax))}::real[],
      ${textArray(col((r) => iso(r.endedAt)))}::timestamptz[]) AS u(id, tmin, tmax, hmin, hmax, ended_at)
    WHERE a.id = u.id`.execute(db);
}

export async function upsertExcursions(db: Db, rows: readonly (PendingExcursion & { deviceId: string })[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(pick: (a: PendingExcursion & { deviceId: string }) => T) => rows.map(pick);
  await sql`
    INSERT INTO alarm_excursions (device_id, type, started_at, last_at, temperature_min, temperature_max, humidity_min, humidity_max)
    SELECT * FROM unnest(${textArray(col((r) => r.deviceId))}::uuid[], ${textArray(col((r) => r.type))}::text[],
      ${textArray(col((r) => new Date(r.startedAt).toISOString()))}::timestamptz[],
      ${textArray(col((r) => new Date(r.lastAt).toISOString()))}::timestamptz[],
      ${numberArray(col((r) => r.observed.temperatureMin))}::real[], ${numberArray(col((r) => r.observed.temperatureMax))}::real[],
      ${numberArray(col((r) => r.observed.humidityMin))}::real[], ${numberArray(col((r) => r.observed.humidityMax))}::real[])
    ON CONFLICT (device_id, type) DO UPDATE SET last_at = excluded.last_at,
      temperature_min = excluded.temperature_min, temperature_max = excluded.temperature_max,
      humidity_min = excluded.humidity_min, humidity_max = excluded.humidity_max`.execute(db);
}

export async function deleteExcursions(db: Db, rows: readonly { deviceId: string; type: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    DELETE FROM alarm_excursions e
    USING unnest(${textArray(rows.map((r) => r.deviceId))}::uuid[], ${textArray(rows.map((r) => r.type))}::text[]) AS u(device_id, type)
    WHERE e.device_id = u.device_id AND e.type = u.type`.execute(db);
}

export interface SilentDevice {
  id: string;
  enterprise_id: string | null;
  no_data_minutes: number;
  last_sync_at: Date;
  travel_id: string | null;
}

/**
 * Devices silent for longer than their no_data_minutes and without an active "no data" alarm, locked
 * (skipping those an ingestion batch holds right now: that batch is their news).
 */
export async function lockSilentDevices(db: Db, now: Date): Promise<SilentDevice[]> {
  const result = await sql<SilentDevice>`
    SELECT d.id, d.enterprise_id, d.no_data_minutes, d.last_sync_at,
      (SELECT t.id FROM travel_devices td JOIN travels t ON t.id = td.travel_id
        WHERE td.device_id = d.id AND t.status = 1 ORDER BY t.started_at DESC NULLS LAST LIMIT 1) AS travel_id
    FROM devices d
    WHERE d.no_data_minutes > 0 AND d.last_sync_at IS NOT NULL
      AND d.last_sync_at + make_interval(mins => d.no_data_minutes) <= ${now.toISOString()}::timestamptz
      AND NOT EXISTS (SELECT 1 FROM alarms a WHERE a.device_id = d.id AND a.type = 'no_data' AND a.active)
    ORDER BY d.num
    FOR UPDATE OF d SKIP LOCKED`.execute(db);
  return result.rows;
}

function notificationQuery(db: Db) {
  return db
    .selectFrom('alarms as a')
    .leftJoin('users as u', 'u.id', 'a.acknowledged_by')
    .leftJoin('electronic_signatures as s', 's.id', 'a.ack_signature_id')
    .select([
      'a.id', 'a.device_id', 'a.travel_id', 'a.type', 'a.message', 'a.started_at', 'a.ended_at', 'a.active',
      'a.temperature_min', 'a.temperature_max', 'a.humidity_min', 'a.humidity_max',
      'a.acknowledged_at', 'a.acknowledged_by', 'a.acknowledge_message', 'u.name as acknowledged_by_name',
      // The acknowledgement's electronic signature (GxP mode, ADR 0062).
      's.id as signature_id', 's.printed_name as signature_printed_name', 's.username as signature_username', 's.meaning as signature_meaning',
      's.signed_at as signature_signed_at', 's.record_hash as signature_record_hash', 's.hash as signature_hash',
    ]);
}

export type AlarmRow = Awaited<ReturnType<ReturnType<typeof notificationQuery>['executeTakeFirstOrThrow']>>;

export async function listAlarmsOfDevice(db: Db, deviceId: string, limit: number): Promise<AlarmRow[]> {
  return notificationQuery(db).where('a.device_id', '=', deviceId).orderBy('a.started_at', 'desc').orderBy('a.id').limit(limit).execute();
}

export async function findAlarm(db: Db, id: string): Promise<AlarmRow | undefined> {
  return notificationQuery(db).where('a.id', '=', id).executeTakeFirst();
}

/** Records an acknowledgement once; false when the alarm was already acknowledged. */
export async function acknowledgeAlarm(db: Db, id: string, by: { userId: string; message: string; at: Date; signatureId?: string }): Promise<boolean> {
  const result = await db
    .updateTable('alarms')
    .set({ acknowledged_at: by.at, acknowledged_by: by.userId, acknowledge_message: by.message, ...(by.signatureId ? { ack_signature_id: by.signatureId } : {}) })
    .where('id', '=', id)
    .where('acknowledged_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
